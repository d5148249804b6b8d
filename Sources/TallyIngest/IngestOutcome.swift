import TallyEvents

/// What happened to one input record.
public enum IngestOutcome: Sendable, Equatable {
    /// Stored for the first time; carries the idempotency key.
    case accepted(key: String)
    /// Its idempotency key was already stored; skipped.
    case duplicate(key: String)
    /// It failed validation; the line was kept in `rejected_lines`.
    case rejected(EventRejection)
}
