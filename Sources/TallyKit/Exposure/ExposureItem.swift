/// One item on screen as the exposure tracker sees it: where it is, what clips it, what it shows.
public struct ExposureItem: Sendable, Equatable {
    /// The item's identity; also the exposure event's `itemId`. The tracker keys all its state by
    /// it, so an item that a refresh moves to another row keeps its state.
    public var itemId: String
    /// The item's frame in window coordinates.
    public var frame: Rect
    /// The bounds, in window coordinates, of every ancestor that clips its content (scroll views,
    /// cells, containers with `clipsToBounds`).
    public var clips: [Rect]
    /// The recommendation behind the item, if it is a recommended one.
    public var context: ExposureContext?

    /// An item at `frame` clipped by `clips`.
    public init(itemId: String, frame: Rect, clips: [Rect] = [], context: ExposureContext? = nil) {
        self.itemId = itemId
        self.frame = frame
        self.clips = clips
        self.context = context
    }
}
