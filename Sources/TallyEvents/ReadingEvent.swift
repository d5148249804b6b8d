/// A reading-session event of the learning app (`ios-learning-collection-design`).
public struct ReadingEvent: Sendable, Equatable {
    /// The reading event kinds `events.md` lists.
    public enum Kind: String, Sendable, CaseIterable {
        /// The reader opened a material.
        case materialOpened = "material_opened"
        /// The reader closed a material.
        case materialClosed = "material_closed"
        /// The reading position moved.
        case positionChanged = "position_changed"
        /// A periodic tick carrying `activeSecondsDelta`.
        case heartbeat
        /// The reader marked the material as read.
        case markedAsRead = "marked_as_read"
    }

    /// What is being read.
    public enum TargetType: String, Sendable, CaseIterable {
        /// A document of the user's knowledge base (the default).
        case knowledgeSource = "knowledge_source"
        /// A temporary file that may expire.
        case temporaryFile = "temporary_file"
    }

    /// Idempotency key.
    public var eventId: String
    /// The client's reading session, if sent.
    public var clientSessionId: String?
    /// The material read.
    public var materialId: String
    /// The event kind.
    public var kind: Kind
    /// Milliseconds since the Unix epoch, client clock.
    public var clientTimestampMs: Int64
    /// Per-session sequence number, if sent.
    public var sequence: Int64?
    /// Active reading seconds since the previous event, `0...3600`.
    public var activeSecondsDelta: Int
    /// The `position` object as sent (JSON text), if any.
    public var positionJSON: String?
    /// Progress in `0...1`: `position.progress`, else `page / pageCount`.
    public var progress: Double?
    /// The material kind (`knowledge_source` when absent).
    public var targetType: TargetType
    /// The material's title, if sent.
    public var title: String?
    /// The knowledge base holding the material, if sent.
    public var knowledgeBaseId: String?
    /// The fields every family shares.
    public var common: EventCommon

    /// Creates a reading event.
    public init(eventId: String, clientSessionId: String? = nil, materialId: String, kind: Kind,
                clientTimestampMs: Int64, sequence: Int64? = nil, activeSecondsDelta: Int = 0,
                positionJSON: String? = nil, progress: Double? = nil, targetType: TargetType = .knowledgeSource,
                title: String? = nil, knowledgeBaseId: String? = nil, common: EventCommon = EventCommon()) {
        self.eventId = eventId
        self.clientSessionId = clientSessionId
        self.materialId = materialId
        self.kind = kind
        self.clientTimestampMs = clientTimestampMs
        self.sequence = sequence
        self.activeSecondsDelta = activeSecondsDelta
        self.positionJSON = positionJSON
        self.progress = progress
        self.targetType = targetType
        self.title = title
        self.knowledgeBaseId = knowledgeBaseId
        self.common = common
    }
}
