/// A snapshot of the queue's contents and of what left it.
public struct QueueStats: Sendable, Equatable {
    /// Events enqueued and not yet put into a batch.
    public var pendingEvents: Int
    /// Events in batches not yet answered (parked ones included).
    public var batchedEvents: Int
    /// Batches not yet answered.
    public var batches: Int
    /// Batches being sent now.
    public var inFlightBatches: Int
    /// Batches parked after an answer retrying cannot change (kept, surfaced, not retried).
    public var parkedBatches: Int
    /// Bytes the queue holds on disk (segments and batch files).
    public var bytesOnDisk: Int64
    /// Events enqueued since this queue was opened.
    public var enqueuedSinceOpen: UInt64
    /// Events whose enqueue returned but whose segment could not be written (the file system failed).
    public var lostToWriteFailures: UInt64
    /// What left the queue, across launches.
    public var counters: QueueCounters
}
