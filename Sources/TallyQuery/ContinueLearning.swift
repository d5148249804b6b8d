/// The material to suggest next: the most recently read one not yet marked as read.
public struct ContinueLearning: Sendable, Equatable {
    /// The candidate's material.
    public var materialId: String
    /// The newest non-null title among its events.
    public var title: String?
    /// Its newest `readingTargetType`.
    public var type: String
    /// The position of its newest event that has one.
    public var lastPosition: MaterialPosition?
    /// The instant of its newest event (ms).
    public var lastReadAt: Int64

    /// Creates an answer.
    public init(materialId: String, title: String?, type: String, lastPosition: MaterialPosition?, lastReadAt: Int64) {
        self.materialId = materialId
        self.title = title
        self.type = type
        self.lastPosition = lastPosition
        self.lastReadAt = lastReadAt
    }
}
