/// One cell of the feed: the unit that is laid out, diffed and exposed.
public struct FeedRow: Sendable, Hashable, Diffable {
    /// The row's identity across refreshes; also the `itemId` of its exposures.
    public var itemId: String
    /// The row's height in points (rows span the feed's width).
    public var height: Double
    /// The recommendation behind the row, if it is a recommended item.
    public var context: ExposureContext?

    /// A row `height` points tall.
    public init(itemId: String, height: Double, context: ExposureContext? = nil) {
        self.itemId = itemId
        self.height = height
        self.context = context
    }

    /// Rows are matched by item id.
    public var diffIdentifier: String { itemId }
}
