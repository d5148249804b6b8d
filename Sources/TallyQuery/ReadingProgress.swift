/// How far a user got in one material (`metrics.md`, reading-progress).
public struct ReadingProgress: Sendable, Equatable {
    /// The three states of a material.
    public enum Status: String, Sendable {
        /// No event for this material.
        case notStarted = "not_started"
        /// Some events, no `marked_as_read`.
        case inProgress = "in_progress"
        /// A `marked_as_read` event.
        case completed
    }

    /// The material asked about.
    public var materialId: String
    /// Its state.
    public var status: Status
    /// The position of its newest event that has one.
    public var lastPosition: MaterialPosition?
    /// Active seconds spent in it.
    public var totalActiveSeconds: Int
    /// The instant of its newest event (ms), if any.
    public var lastReadAt: Int64?

    /// Creates a progress answer.
    public init(materialId: String, status: Status, lastPosition: MaterialPosition?, totalActiveSeconds: Int, lastReadAt: Int64?) {
        self.materialId = materialId
        self.status = status
        self.lastPosition = lastPosition
        self.totalActiveSeconds = totalActiveSeconds
        self.lastReadAt = lastReadAt
    }
}
