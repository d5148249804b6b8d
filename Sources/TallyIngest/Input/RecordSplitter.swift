/// Cuts the bytes held in the reader's window into records, carrying an unfinished record over
/// to the next chunk.
protocol RecordSplitter {
    /// Emits every record that ends within the first `count` bytes at `base`, going on from
    /// where the previous call stopped.
    mutating func scan(
        _ base: UnsafePointer<UInt8>, count: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows
    /// Emits what is left when the input ends after the first `count` bytes at `base`.
    mutating func finish(
        _ base: UnsafePointer<UInt8>, count: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows
    /// The offset of the first byte still needed: the start of the unfinished record.
    var keepFrom: Int { get }
    /// Shifts the splitter's offsets after the window forgot its first `n` bytes.
    mutating func didDiscard(_ n: Int)
    /// True when the rest of the input is to be ignored.
    var isFinished: Bool { get }
}

extension RecordSplitter {
    /// At most this many bytes of a record that is too long (or of stray data) are handed over.
    static var previewLimit: Int { 1024 }

    /// The record for a `what` ("line", "element") at `start` whose bytes up to its delimiter
    /// exceed `limit`: a preview of its first bytes, flagged malformed.
    static func tooLong(
        _ what: String, _ base: UnsafePointer<UInt8>, start: Int, available: Int, line: Int, index: Int?, limit: Int
    ) -> EventFileReader.Record {
        .init(bytes: UnsafeRawBufferPointer(start: base + start, count: min(available, previewLimit)),
              line: line, index: index, malformed: "\(what) longer than \(limit) bytes", isPreview: true)
    }
}
