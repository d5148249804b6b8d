#if canImport(CoreGraphics)
import CoreGraphics

extension Rect {
    /// The same rectangle as `rect` (a view's frame, converted to window coordinates).
    public init(_ rect: CGRect) {
        self.init(x: Double(rect.origin.x), y: Double(rect.origin.y),
                  width: Double(rect.size.width), height: Double(rect.size.height))
    }
}
#endif
