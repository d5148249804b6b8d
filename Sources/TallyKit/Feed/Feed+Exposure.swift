extension Feed {
    /// What the feed shows scrolled down by `scrollOffset` points in a scroll view whose frame
    /// in the window is `viewport`: the rows that overlap it, framed in window coordinates and
    /// clipped by the viewport, with `occluders` drawn over them.
    public func exposureLayout(scrollOffset: Double, viewport: Rect, window: Rect,
                               occluders: [Rect] = []) -> ExposureLayout {
        let bottom = scrollOffset + viewport.height
        // The first row whose bottom is below the viewport's top.
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if top(ofRow: middle + 1) <= scrollOffset { low = middle + 1 } else { high = middle }
        }
        var items: [ExposureItem] = []
        var index = low
        while index < rows.count, top(ofRow: index) < bottom {
            let row = rows[index]
            let frame = Rect(x: viewport.minX, y: viewport.minY + top(ofRow: index) - scrollOffset,
                             width: viewport.width, height: row.height)
            items.append(ExposureItem(itemId: row.itemId, frame: frame, clips: [viewport], context: row.context))
            index += 1
        }
        return ExposureLayout(window: window, items: items, occluders: occluders)
    }
}
