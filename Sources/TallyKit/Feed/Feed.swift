/// A vertical feed of heterogeneous sections, each a stack of full-width rows.
///
/// ``update(to:)`` replaces the sections and answers, by ``ListDiff``, what changed: the batch
/// update for a collection view. The rows' item ids are also the keys the ``ExposureTracker``
/// uses, so items a refresh keeps stay exposed wherever they move.
public struct Feed: Sendable {
    /// The sections, top to bottom.
    public private(set) var sections: [any FeedSection]
    /// Every section's rows in order.
    public private(set) var rows: [FeedRow]
    /// Each row's top in content coordinates, then the content's height.
    private var rowTops: [Double]

    /// A feed showing `sections`.
    public init(sections: [any FeedSection] = []) {
        self.sections = sections
        rows = sections.flatMap(\.rows)
        rowTops = Self.tops(of: rows)
    }

    /// The height of all rows together.
    public var contentHeight: Double { rowTops[rows.count] }

    /// The top of row `index` in content coordinates.
    public func top(ofRow index: Int) -> Double {
        rowTops[index]
    }

    /// Shows `newSections` instead and returns what changed.
    @discardableResult
    public mutating func update(to newSections: [any FeedSection]) -> FeedUpdate {
        let newRows = newSections.flatMap(\.rows)
        let update = FeedUpdate(
            sections: ListDiff.diff(from: sections.map(FeedSectionBox.init), to: newSections.map(FeedSectionBox.init)),
            rows: ListDiff.diff(from: rows, to: newRows))
        sections = newSections
        rows = newRows
        rowTops = Self.tops(of: newRows)
        return update
    }

    private static func tops(of rows: [FeedRow]) -> [Double] {
        var tops = [0.0]
        tops.reserveCapacity(rows.count + 1)
        for row in rows {
            tops.append(tops[tops.count - 1] + max(0, row.height))
        }
        return tops
    }
}
