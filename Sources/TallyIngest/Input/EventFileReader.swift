/// Streams the records of an event file, stdin or a request body: NDJSON lines or the elements
/// of a batch (`events.md`, the part about files), gzip or not, with memory bounded by one
/// chunk plus the longest record.
///
/// ```swift
/// let reader = try EventFileReader(path: "events.ndjson.gz")
/// try reader.forEachRecord { record in
///     // record.bytes is valid only here
/// }
/// ```
///
/// The format is settled when the reader is created: `.ndjson` and `.jsonl` names (before an
/// optional `.gz`) are always read line by line; other inputs are a batch array when the first
/// non-blank byte is `[`, a batch object when the first object has a key `events` at depth 1
/// whose value is an array, else NDJSON. Gzip is recognised by its signature whatever the name.
public final class EventFileReader {
    /// The path as given (`-` for stdin), or the name given for a descriptor or bytes.
    public let path: String
    /// The layout of the input.
    public let format: Format
    /// The size of the underlying file when it is a regular file (compressed size for gzip), else nil.
    public let totalBytes: Int?

    private let raw: any ByteSource
    private let source: any ByteSource
    private let window: InputWindow
    private let maxRecordBytes: Int
    private let start: (offset: Int, line: Int)
    private var isConsumed = false

    /// Opens `path`, or reads stdin when `path` is `-`, and detects the format.
    ///
    /// - Parameters:
    ///   - chunkSize: bytes read at a time.
    ///   - maxRecordBytes: a longer line or element is reported `malformed` and skipped, which
    ///     bounds the memory a damaged or hostile input can take.
    /// - Throws: `EventFileError` when the file cannot be opened or read, is not gzip although
    ///   named `.gz`, or is not text.
    public convenience init(path: String, chunkSize: Int = 1 << 20, maxRecordBytes: Int = 64 << 20) throws {
        let isStdin = path == "-"
        let name = isStdin ? "standard input" : path
        let file = isStdin
            ? FileByteSource(descriptor: 0, closesDescriptor: false, name: name)
            : try FileByteSource(opening: path, name: name)
        try self.init(raw: file, path: path, displayName: name, totalBytes: file.regularFileSize,
                      chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
    }

    /// Reads an open descriptor (a pipe, a socket, a file), which stays open; `name` labels
    /// messages and, by its extension, chooses line-by-line reading as for a path.
    public convenience init(
        fileDescriptor: Int32, name: String, chunkSize: Int = 1 << 20, maxRecordBytes: Int = 64 << 20
    ) throws {
        let file = FileByteSource(descriptor: fileDescriptor, closesDescriptor: false, name: name)
        try self.init(raw: file, path: name, displayName: name, totalBytes: file.regularFileSize,
                      chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
    }

    /// Reads bytes already in memory, such as a request body (gzip or not); `name` labels
    /// messages and, by its extension, chooses line-by-line reading as for a path. Gzip `bytes`
    /// that inflate to more than `maxInflatedBytes` end the reading with
    /// `EventFileError.inflatedTooLarge`, so a gzip file inside a gzip body is bounded too.
    public convenience init(
        bytes: [UInt8], name: String, chunkSize: Int = 1 << 20, maxRecordBytes: Int = 64 << 20, maxInflatedBytes: Int? = nil
    ) throws {
        try self.init(raw: MemoryByteSource(bytes), path: name, displayName: name, totalBytes: bytes.count,
                      chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, maxInflatedBytes: maxInflatedBytes)
    }

    private init(
        raw: any ByteSource, path: String, displayName: String, totalBytes: Int?, chunkSize: Int, maxRecordBytes: Int,
        maxInflatedBytes: Int? = nil
    ) throws {
        precondition(chunkSize > 0 && maxRecordBytes > 0, "chunkSize and maxRecordBytes must be positive")
        var stem = path.lowercased()
        let expectsGzip = stem.hasSuffix(".gz")
        if expectsGzip { stem.removeLast(3) }
        window = InputWindow(chunkSize: chunkSize)
        let detection = try FormatDetector.detect(
            window: window, raw: raw, name: displayName,
            linesOnly: stem.hasSuffix(".ndjson") || stem.hasSuffix(".jsonl"), expectsGzip: expectsGzip,
            chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, maxInflatedBytes: maxInflatedBytes)
        self.path = path
        self.raw = raw
        self.totalBytes = totalBytes
        self.maxRecordBytes = maxRecordBytes
        source = detection.source
        format = detection.format
        start = (detection.offset, detection.line)
    }

    /// Bytes taken from the underlying file so far (compressed bytes for gzip), for progress
    /// against `totalBytes`; may be read from inside `forEachRecord`'s callback.
    public var bytesRead: Int { raw.bytesRead }

    /// Calls `body` with every record, in input order. The input is read once: a second call
    /// returns at once. An error thrown by `body` stops the reading and is rethrown.
    ///
    /// - Throws: `EventFileError` when reading or inflating fails part way.
    public func forEachRecord(_ body: (Record) throws -> Void) throws {
        guard !isConsumed else { return }
        isConsumed = true
        switch format {
        case .ndjson:
            var splitter = LineSplitter(offset: start.offset, line: start.line, maxRecordBytes: maxRecordBytes)
            try run(&splitter, body)
        case .batchArray, .batchObject:
            var splitter = BatchSplitter(offset: start.offset, line: start.line, isObject: format == .batchObject,
                                         maxRecordBytes: maxRecordBytes)
            try run(&splitter, body)
        }
    }

    /// Scans what the window holds, forgets what is done, reads the next chunk; until the end.
    private func run<Splitter: RecordSplitter>(_ splitter: inout Splitter, _ body: (Record) throws -> Void) throws {
        while true {
            try splitter.scan(window.base, count: window.count, emit: body)
            if splitter.isFinished { return }
            let done = splitter.keepFrom
            window.discard(done)
            splitter.didDiscard(done)
            if try window.fill(from: source) == 0 {
                try splitter.finish(window.base, count: window.count, emit: body)
                return
            }
        }
    }
}

// MARK: - Format

extension EventFileReader {
    /// How an input is laid out (`events.md`, "One event is one JSON object").
    public enum Format: String, Sendable, Equatable {
        /// JSONEachRow: one JSON value a line.
        case ndjson
        /// A batch file that is one JSON array of events.
        case batchArray
        /// A batch file that is one object whose `events` key holds the array of events.
        case batchObject
    }
}

// MARK: - Request bodies

extension EventFileReader {
    /// The content of gzip `bytes` (every member, as `gzip -d` gives it), or nil as soon as it
    /// comes to more than `limit` bytes: a request body's size is bounded after decompression.
    ///
    /// - Throws: `EventFileError.corruptGzip` naming `name` when the data is damaged or cut short.
    public static func gunzip(_ bytes: [UInt8], limit: Int, name: String) throws -> [UInt8]? {
        let chunk = 64 << 10
        let source = try GzipByteSource(compressed: MemoryByteSource(bytes), prefix: UnsafeRawBufferPointer(start: nil, count: 0),
                                        chunkSize: chunk, name: name)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        var content: [UInt8] = []
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { return content }
            guard content.count + n <= limit else { return nil }
            content.append(contentsOf: buffer[0..<n])
        }
    }
}
