import TallyKit
import TallyTestSupport
import Testing

struct RectTests {
    @Test func intersectionOfDisjointRectanglesIsEmpty() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersection(Rect(x: 10, y: 0, width: 5, height: 5)).isEmpty)
        #expect(a.intersection(Rect(x: 5, y: 5, width: 10, height: 10)) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(Rect(x: 0, y: 0, width: -3, height: 4).area == 0)
    }

    @Test func unionAreaCountsOverlapsOnceLikeCountingUnitCells() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let rects = (0..<Int.random(in: 0...7, using: &random)).map { _ in
                Rect(x: Double(Int.random(in: -5...20, using: &random)), y: Double(Int.random(in: -5...20, using: &random)),
                     width: Double(Int.random(in: -2...12, using: &random)),
                     height: Double(Int.random(in: -2...12, using: &random)))
            }
            var cells = 0
            for x in -5..<32 {
                for y in -5..<32 {
                    let centre = (Double(x) + 0.5, Double(y) + 0.5)
                    if rects.contains(where: { !$0.isEmpty && $0.minX < centre.0 && centre.0 < $0.maxX
                                        && $0.minY < centre.1 && centre.1 < $0.maxY }) {
                        cells += 1
                    }
                }
            }
            #expect(Rect.unionArea(of: rects) == Double(cells), "\(rects)")
        }
    }
}
