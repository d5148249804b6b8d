import TallyEvents

/// The timings and common fields of a ``ReadingTracker``.
public struct ReadingTrackerConfiguration: Sendable {
    /// Active reading time between two heartbeats, in milliseconds (15 s). A whole number of
    /// seconds in `1...3600` s, so every heartbeat's `activeSecondsDelta` is valid on the wire.
    public let heartbeatIntervalMs: Int64
    /// How long position changes are coalesced, in milliseconds (2 s): the first change after
    /// an emitted position starts the window, later changes replace it, and the latest is sent
    /// when the window ends (or earlier, riding on a heartbeat, pause, background, close or
    /// mark-as-read). Continuous scrolling therefore sends at most one position per window.
    public let positionDebounceMs: Int64
    /// How often, while reading, the session's state is saved even without an event, in
    /// milliseconds (1 s, the production driver's tick): a session killed with the app loses at most this much active time.
    public let checkpointIntervalMs: Int64
    /// How long the app may stay in the background before its session ends, in milliseconds
    /// (30 min): coming back later closes the session at the instant the app left and opens a
    /// new one for the same material.
    public let backgroundSessionTimeoutMs: Int64
    /// User, time-zone offset, platform and app version written on every event.
    public var common: EventCommon

    /// A configuration; the defaults are the documented ones.
    public init(heartbeatIntervalMs: Int64 = 15_000, positionDebounceMs: Int64 = 2_000,
                checkpointIntervalMs: Int64 = 1_000, backgroundSessionTimeoutMs: Int64 = 30 * 60_000,
                common: EventCommon = EventCommon()) {
        precondition(heartbeatIntervalMs % 1_000 == 0 && (1_000...3_600_000).contains(heartbeatIntervalMs),
                     "the heartbeat interval must be a whole number of seconds in 1...3600")
        precondition(positionDebounceMs >= 0 && checkpointIntervalMs >= 0 && backgroundSessionTimeoutMs >= 0,
                     "durations cannot be negative")
        self.heartbeatIntervalMs = heartbeatIntervalMs
        self.positionDebounceMs = positionDebounceMs
        self.checkpointIntervalMs = checkpointIntervalMs
        self.backgroundSessionTimeoutMs = backgroundSessionTimeoutMs
        self.common = common
    }
}
