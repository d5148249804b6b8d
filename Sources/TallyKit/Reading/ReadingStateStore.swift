/// Where a ``ReadingTracker`` keeps the state of its open session between launches.
///
/// The tracker calls it on the caller's thread, under its own lock, whenever the session
/// emits an event, changes state or reaches a checkpoint; one tracker per store.
public protocol ReadingStateStore: Sendable {
    /// The saved record, or nil when no session was open.
    func load() throws -> ReadingSessionRecord?

    /// Replaces the saved record with `record`; nil clears it (no session open).
    func save(_ record: ReadingSessionRecord?) throws
}
