import TallyEvents

/// A group of events of one family, fixed once formed: every attempt sends the same events in
/// the same order, byte for byte, so the destination can deduplicate a retry.
public struct QueuedBatch: Codable, Sendable, Equatable, Identifiable {
    /// The batch's number in its queue.
    public var id: UInt64
    /// The family of every event in it.
    public var family: EventFamily
    /// How many events it holds.
    public var eventCount: Int
    /// How many attempts failed in a row.
    public var retryCount: Int
    /// When to try next (ms since the epoch); nil: at the next flush or network recovery.
    public var nextAttemptMs: Int64?
    /// Where the batch stands.
    public var state: BatchState
    /// The last error its destination answered, for parked batches and failed attempts.
    public var lastError: String?

    /// A batch as the queue persists it.
    public init(id: UInt64, family: EventFamily, eventCount: Int, retryCount: Int = 0, nextAttemptMs: Int64?,
                state: BatchState = .pending, lastError: String? = nil) {
        self.id = id
        self.family = family
        self.eventCount = eventCount
        self.retryCount = retryCount
        self.nextAttemptMs = nextAttemptMs
        self.state = state
        self.lastError = lastError
    }
}
