/// A place in the queue's segments: every record before it has been put in a batch or dropped.
struct QueuePosition: Codable, Sendable, Equatable, Comparable {
    /// The segment number.
    var segment: UInt64
    /// The byte offset in that segment.
    var offset: Int

    static func < (lhs: QueuePosition, rhs: QueuePosition) -> Bool {
        (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
    }
}
