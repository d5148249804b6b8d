import TallyEvents

/// Records read and validated ahead of the store, with a copy of their bytes: what the
/// reading thread hands to the storing thread.
struct ValidatedChunk: Sendable {
    struct Entry: Sendable {
        var result: Result<Event, EventRejection>
        var origin: RecordOrigin
        var range: Range<Int>
    }

    var entries: [Entry] = []
    var bytes: [UInt8] = []
    /// Bytes of the input read when the chunk was closed, for progress.
    var bytesRead = 0

    init(capacity: Int) {
        entries.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 512)
    }
}
