import TallyEvents

/// One attempt at sending a batch: its events' wire JSON, one a line, the same bytes at every attempt.
public struct UploadRequest: Sendable, Equatable {
    /// The batch's id in its queue.
    public var batchId: UInt64
    /// The family of every event in it.
    public var family: EventFamily
    /// The events as NDJSON (each line ends with a line feed).
    public var ndjson: [UInt8]
    /// How many events it holds.
    public var eventCount: Int

    /// A request for batch `batchId`.
    public init(batchId: UInt64, family: EventFamily, ndjson: [UInt8], eventCount: Int) {
        self.batchId = batchId
        self.family = family
        self.ndjson = ndjson
        self.eventCount = eventCount
    }
}
