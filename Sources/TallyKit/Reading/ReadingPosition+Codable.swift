extension ReadingPosition: Codable {
    private enum CodingKeys: String, CodingKey {
        case page, pageCount, progress, anchor
    }

    /// Reads a saved position, normalising its progress again.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(page: try container.decodeIfPresent(Int.self, forKey: .page),
                  pageCount: try container.decodeIfPresent(Int.self, forKey: .pageCount),
                  progress: try container.decodeIfPresent(Double.self, forKey: .progress),
                  anchor: try container.decodeIfPresent(String.self, forKey: .anchor))
    }

    /// Writes the position's fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(page, forKey: .page)
        try container.encodeIfPresent(pageCount, forKey: .pageCount)
        try container.encodeIfPresent(progress, forKey: .progress)
        try container.encodeIfPresent(anchor, forKey: .anchor)
    }
}
