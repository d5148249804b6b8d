extension Rect {
    /// The area covered by at least one of `rects`, counting overlaps once: exact, by sweeping
    /// the vertical slabs between consecutive left and right edges and merging, in each slab, the
    /// vertical extents of the rectangles that span it. O(n² log n) for n rectangles, which is
    /// what a handful of occluding views costs.
    public static func unionArea(of rects: [Rect]) -> Double {
        let solid = rects.filter { !$0.isEmpty }
        guard solid.count > 1 else { return solid.first?.area ?? 0 }
        let edges = Array(Set(solid.flatMap { [$0.minX, $0.maxX] })).sorted()
        var total = 0.0
        var spans: [(top: Double, bottom: Double)] = []
        for (left, right) in zip(edges, edges.dropFirst()) {
            spans.removeAll(keepingCapacity: true)
            for rect in solid where rect.minX <= left && rect.maxX >= right {
                spans.append((rect.minY, rect.maxY))
            }
            guard !spans.isEmpty else { continue }
            spans.sort { $0.top < $1.top }
            var covered = 0.0
            var current = spans[0]
            for span in spans.dropFirst() {
                if span.top > current.bottom {
                    covered += current.bottom - current.top
                    current = span
                } else {
                    current.bottom = max(current.bottom, span.bottom)
                }
            }
            covered += current.bottom - current.top
            total += covered * (right - left)
        }
        return total
    }
}
