/// What an ingest did: events stored, duplicates skipped, lines rejected.
public struct IngestCounts: Sendable, Equatable {
    /// Events stored for the first time.
    public var accepted = 0
    /// Events whose idempotency key was already stored (skipped; the first stored wins).
    public var duplicates = 0
    /// Lines that failed validation.
    public var rejected = 0

    /// Creates counts.
    public init(accepted: Int = 0, duplicates: Int = 0, rejected: Int = 0) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.rejected = rejected
    }

    /// Adds another run's counts.
    public static func += (lhs: inout IngestCounts, rhs: IngestCounts) {
        lhs.accepted += rhs.accepted
        lhs.duplicates += rhs.duplicates
        lhs.rejected += rhs.rejected
    }
}
