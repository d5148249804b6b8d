import TallyEvents

/// What a reading session reads: written on every event of the session, so that the
/// continue-learning and progress reports find its newest title and kind on any of them.
public struct ReadingMaterial: Sendable, Equatable {
    /// The material's id (`materialId`); must not be empty.
    public var materialId: String
    /// A knowledge-base document or a temporary file (`readingTargetType`).
    public var targetType: ReadingEvent.TargetType
    /// The title shown by "continue learning", if known.
    public var title: String?
    /// The knowledge base holding the material, if any.
    public var knowledgeBaseId: String?

    /// A material to read.
    public init(materialId: String, targetType: ReadingEvent.TargetType = .knowledgeSource, title: String? = nil,
                knowledgeBaseId: String? = nil) {
        self.materialId = materialId
        self.targetType = targetType
        self.title = title
        self.knowledgeBaseId = knowledgeBaseId
    }
}
