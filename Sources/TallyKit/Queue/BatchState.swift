/// Where a formed batch stands.
public enum BatchState: String, Codable, Sendable, Equatable {
    /// Waiting for its next attempt (`nextAttemptMs`), or for the next flush when that is nil.
    case pending
    /// Being sent now.
    case inFlight
    /// The destination refused the whole batch with an answer retrying cannot change: the events
    /// are kept, the batch is not retried until ``DurableQueue/retryParkedBatches()``.
    case parked
}
