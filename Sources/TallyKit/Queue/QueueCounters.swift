/// What happened to events that left the queue, counted across launches.
public struct QueueCounters: Codable, Sendable, Equatable {
    /// Events the destination accepted (or already had).
    public var acknowledged: UInt64 = 0
    /// Events dropped because the queue was full (the oldest go first).
    public var droppedOldest: UInt64 = 0
    /// Events the destination rejected for good (`INVALID_*`, access denied, deleted or expired
    /// material; a 4xx of a destination whose client errors mean "drop").
    public var droppedRejected: UInt64 = 0
    /// Records that could not be read back (torn or corrupted) and were moved to the quarantine folder.
    public var quarantined: UInt64 = 0
    /// Events refused by `enqueue` because their encoding exceeds the largest record.
    public var droppedOversize: UInt64 = 0

    /// No events counted.
    public init() {}
}
