/// The recommendation behind a feed item, copied onto its exposure event so exposures join the
/// feedback given on the same impression.
public struct ExposureContext: Sendable, Hashable {
    /// The impression: one showing of one recommended item.
    public var impressionId: String
    /// The model version that ranked the item.
    public var modelInfo: String
    /// The item's position in the ranked feed, `>= 0`.
    public var feedPosition: Int

    /// A recommendation context.
    public init(impressionId: String, modelInfo: String, feedPosition: Int) {
        self.impressionId = impressionId
        self.modelInfo = modelInfo
        self.feedPosition = feedPosition
    }
}
