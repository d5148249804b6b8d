/// An axis-aligned rectangle in points, in whatever coordinate space its user states (the
/// exposure types use window coordinates). A rectangle with no positive width or height is empty.
public struct Rect: Sendable, Hashable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width; zero or less means empty.
    public var width: Double
    /// The height; zero or less means empty.
    public var height: Double

    /// A rectangle with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }

    /// Whether the rectangle covers no area.
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// The area covered, 0 when empty.
    public var area: Double { isEmpty ? 0 : width * height }

    /// The part of this rectangle inside `other`: an empty rectangle when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(minX, other.minX)
        let top = max(minY, other.minY)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

// MARK: - CoreGraphics

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
