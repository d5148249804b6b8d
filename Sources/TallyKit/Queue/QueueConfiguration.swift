/// How large the queue may grow and how its files are cut.
public struct QueueConfiguration: Sendable, Equatable {
    /// The size of one segment file; an event's encoding may take at most a quarter of it.
    public var segmentBytes: Int
    /// The most bytes the queue keeps on disk; beyond it the oldest events are dropped and counted.
    /// At least three segments.
    public var maxBytes: Int64
    /// How long the background writer lets records wait before syncing them when nobody waits
    /// for durability, in milliseconds.
    public var commitIntervalMs: Int

    /// Segments of 4 MiB, at most 64 MiB on disk, synced every 200 ms.
    public init(segmentBytes: Int = 4 << 20, maxBytes: Int64 = 64 << 20, commitIntervalMs: Int = 200) {
        self.segmentBytes = max(segmentBytes, 64 * 1024)
        self.maxBytes = max(maxBytes, Int64(self.segmentBytes) * 3)
        self.commitIntervalMs = max(1, commitIntervalMs)
    }
}
