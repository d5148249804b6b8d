/// When the uploader flushes and how it retries.
public struct UploadConfiguration: Sendable, Equatable {
    /// Events per batch, and the number of waiting events that triggers a flush.
    public var batchSize: Int
    /// The longest time between flushes, in milliseconds.
    public var flushIntervalMs: Int64
    /// The waits after the 1st, 2nd, … failed attempt of a batch, in milliseconds; after the
    /// last one the batch waits for the next flush or network recovery.
    public var backoffMs: [Int64]
    /// Each wait is lengthened by a random share of itself in `0..<jitter`.
    public var jitter: Double
    /// The longest `Retry-After` honoured, in milliseconds.
    public var maxRetryAfterMs: Int64
    /// Batches formed ahead of their answers (parked ones aside).
    public var maxOpenBatches: Int

    /// 50 events, 30 s, backoff 1, 2, 4, 8 s with up to 20 % jitter, `Retry-After` up to an hour.
    public init(batchSize: Int = 50, flushIntervalMs: Int64 = 30_000, backoffMs: [Int64] = [1000, 2000, 4000, 8000],
                jitter: Double = 0.2, maxRetryAfterMs: Int64 = 3_600_000, maxOpenBatches: Int = 4) {
        self.batchSize = max(1, batchSize)
        self.flushIntervalMs = max(1, flushIntervalMs)
        self.backoffMs = backoffMs
        self.jitter = max(0, jitter)
        self.maxRetryAfterMs = maxRetryAfterMs
        self.maxOpenBatches = max(1, maxOpenBatches)
    }
}
