import TallyEvents

extension ReadingMaterial: Codable {
    private enum CodingKeys: String, CodingKey {
        case materialId, targetType = "readingTargetType", title, knowledgeBaseId
    }

    /// Reads a material saved by ``encode(to:)``; an unknown target type reads as a knowledge source.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            materialId: try container.decode(String.self, forKey: .materialId),
            targetType: try container.decodeIfPresent(String.self, forKey: .targetType)
                .flatMap(ReadingEvent.TargetType.init(rawValue:)) ?? .knowledgeSource,
            title: try container.decodeIfPresent(String.self, forKey: .title),
            knowledgeBaseId: try container.decodeIfPresent(String.self, forKey: .knowledgeBaseId))
    }

    /// Writes the material with its wire field names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(materialId, forKey: .materialId)
        try container.encode(targetType.rawValue, forKey: .targetType)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(knowledgeBaseId, forKey: .knowledgeBaseId)
    }
}
