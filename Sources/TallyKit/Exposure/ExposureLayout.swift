/// What a page shows at one instant: the window, the items that may be on screen, and the views
/// drawn over them.
public struct ExposureLayout: Sendable, Equatable {
    /// The window's bounds; nothing outside it is visible.
    public var window: Rect
    /// The items laid out, in any order; items off screen may be listed or left out.
    public var items: [ExposureItem]
    /// Opaque views drawn above the items (navigation and tab bars, floating buttons, banners),
    /// in window coordinates; what they cover does not count as visible.
    public var occluders: [Rect]

    /// A layout of `items` in `window` under `occluders`.
    public init(window: Rect, items: [ExposureItem] = [], occluders: [Rect] = []) {
        self.window = window
        self.items = items
        self.occluders = occluders
    }
}

// MARK: - Visibility

extension ExposureLayout {
    /// The area of `item` a user can see: its frame clipped by the window and every clipping
    /// ancestor, less the union of the occluders over what remains.
    public func visibleArea(of item: ExposureItem) -> Double {
        var visible = item.frame.intersection(window)
        for clip in item.clips where !visible.isEmpty {
            visible = visible.intersection(clip)
        }
        guard !visible.isEmpty else { return 0 }
        let covered = occluders.map { $0.intersection(visible) }.filter { !$0.isEmpty }
        return max(0, visible.area - Rect.unionArea(of: covered))
    }
}
