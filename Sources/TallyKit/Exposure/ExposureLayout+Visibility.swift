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
