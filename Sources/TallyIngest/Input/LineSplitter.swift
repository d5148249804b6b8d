#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts NDJSON into lines with `memchr`: each non-blank line, without its CR/LF, is a record.
struct LineSplitter: RecordSplitter {
    private var lineStart: Int
    /// Where the search for the next line feed resumes (bytes before it hold none).
    private var searchFrom: Int
    private var line: Int
    private let maxRecordBytes: Int
    /// The current line was reported as too long; its remaining bytes are dropped.
    private var skipping = false

    /// Starts at `offset`, the start of line `line`.
    init(offset: Int, line: Int, maxRecordBytes: Int) {
        lineStart = offset
        searchFrom = offset
        self.line = line
        self.maxRecordBytes = maxRecordBytes
    }

    var keepFrom: Int { lineStart }

    var isFinished: Bool { false }

    mutating func didDiscard(_ n: Int) {
        lineStart -= n
        searchFrom -= n
    }

    mutating func scan(
        _ base: UnsafePointer<UInt8>, count: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows {
        var start = lineStart
        var from = searchFrom
        while from < count, let found = memchr(base + from, 0x0A, count - from) {
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if skipping {
                skipping = false
            } else {
                try emitLine(base, from: start, to: end, emit: emit)
            }
            line += 1
            start = end + 1
            from = start
        }
        if skipping {
            start = count
        } else if count - start > maxRecordBytes {
            try emit(Self.tooLong("line", base, start: start, available: count - start, line: line, index: nil,
                                  limit: maxRecordBytes))
            skipping = true
            start = count
        }
        lineStart = start
        searchFrom = count
    }

    mutating func finish(
        _ base: UnsafePointer<UInt8>, count: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows {
        if !skipping && lineStart < count {
            try emitLine(base, from: lineStart, to: count, emit: emit)
        }
    }

    /// Emits the line `start..<end` (its line feed excluded) unless it is blank.
    @inline(__always)
    private func emitLine(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows {
        if end - start > maxRecordBytes {
            try emit(Self.tooLong("line", base, start: start, available: end - start, line: line, index: nil,
                                  limit: maxRecordBytes))
            return
        }
        var end = end
        if end > start && base[end - 1] == 0x0D { end -= 1 }
        var first = start
        while first < end && base[first].isBlank { first += 1 }
        guard first < end else { return }
        try emit(.init(bytes: UnsafeRawBufferPointer(start: base + start, count: end - start),
                       line: line, index: nil, malformed: nil))
    }
}
