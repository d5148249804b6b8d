import TallyEvents

/// Records read and validated ahead of the store, with a copy of their bytes: what the
/// reading thread hands to the storing thread, and what a request body becomes before its
/// events are stored.
public struct ValidatedChunk: Sendable {
    /// One record: its validation, where it came from, and where its bytes are in `bytes`.
    public struct Entry: Sendable {
        /// The event, or why it was rejected.
        public var result: Result<Event, EventRejection>
        /// The file (or request) and line of the record.
        public var origin: RecordOrigin
        /// The record's bytes within the chunk's `bytes`.
        public var range: Range<Int>
    }

    /// The records, in input order.
    public internal(set) var entries: [Entry] = []
    /// The records' bytes, one after the other.
    public internal(set) var bytes: [UInt8] = []
    /// Bytes of the input read when the chunk was closed, for progress.
    var bytesRead = 0

    /// An empty chunk with room for `capacity` records.
    public init(capacity: Int) {
        entries.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 512)
    }

    /// Validates `record` and copies it in, as `ingest` does; a damaged batch element becomes
    /// the records found in it (`Ingestor.validate(_:_:)`), each with its own line and position.
    public mutating func append(_ record: EventFileReader.Record, origin: RecordOrigin) {
        Ingestor.validate(record) { piece, result in
            let start = bytes.count
            bytes.append(contentsOf: piece.bytes)
            entries.append(Entry(result: result, origin: RecordOrigin(file: origin.file, line: piece.line, element: piece.index),
                                 range: start..<bytes.count))
        }
    }
}
