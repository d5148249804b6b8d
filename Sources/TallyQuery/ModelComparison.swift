import Foundation
import TallyEvents

/// The model comparison (`metrics.md`, `report compare --baseline B`): what a backend reads, per
/// group of model version (and feed position) the counts of each user and the dates it served,
/// and the rows computed from them, each group against the baseline's group at the same position.
///
/// A backend adds its rows in the report's row order (model, then position); the statistics
/// are computed here alike for every backend (`RatioEstimate`).
public struct ModelComparison: Sendable {
    /// One row of the report before its statistics: a model version at a position (or all
    /// positions), the counts of each of its users, and its first and last local dates.
    struct Group: Sendable {
        var model: ReportValue
        var position: ReportValue
        var users: [Bytewise<String>: RatioEstimate.Counts] = [:]
        var firstDate: ReportValue = .null
        var lastDate: ReportValue = .null
    }

    /// A group's key: the model and the position as the backend gave them.
    private struct Key: Hashable {
        @Bytewise var model: String?
        @Bytewise var position: String?
    }

    /// How the rows are grouped: by model, or by model and position (bucketed or not).
    public let grouping: DislikeGrouping
    private var groups: [Group] = []
    private var index: [Key: Int] = [:]
    /// The group of the last row added: rows come in the report's order, a group's together.
    private var last: (model: ReportValue, position: ReportValue, at: Int)?

    /// An empty comparison grouped by `grouping` (which always groups by model).
    public init(grouping: DislikeGrouping) {
        self.grouping = DislikeGrouping(byModel: true, byPosition: grouping.byPosition, buckets: grouping.buckets)
    }

    private static func key(_ model: ReportValue, _ position: ReportValue) -> Key {
        func text(_ value: ReportValue) -> String? {
            switch value {
            case .null: nil
            case .int(let v): String(v)
            case .double(let v): String(v)
            case .text(let v), .json(let v): v
            }
        }
        return Key(model: text(model), position: text(position))
    }

    private mutating func group(_ model: ReportValue, _ position: ReportValue) -> Int {
        if let last, Self.same(last.model, model), Self.same(last.position, position) { return last.at }
        let key = Self.key(model, position)
        let at: Int
        if let existing = index[key] {
            at = existing
        } else {
            groups.append(Group(model: model, position: position))
            at = groups.count - 1
            index[key] = at
        }
        last = (model, position, at)
        return at
    }

    /// Whether two values are the same to the byte (texts compared as `Key` compares them).
    private static func same(_ a: ReportValue, _ b: ReportValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.int(let x), .int(let y)): x == y
        case (.text(let x), .text(let y)): x.utf8.elementsEqual(y.utf8)
        default: false
        }
    }

    /// Whether `a`'s UTF-8 sorts before `b`'s, byte by byte.
    private static func precedes(_ a: Bytewise<String>, _ b: Bytewise<String>) -> Bool {
        var a = a.wrappedValue, b = b.wrappedValue
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }

    /// Adds one user's counts in the group of `model` at `position` (`.null` without positions):
    /// `exposures` (n > 0) and `dislikes` (d) as `dislike-rate` counts them.
    public mutating func add(model: ReportValue, position: ReportValue, user: String, exposures: Int64, dislikes: Int64) {
        let at = group(model, position)
        groups[at].users[Bytewise(user)] = RatioEstimate.Counts(exposures: exposures, dislikes: dislikes)
    }

    /// Sets the earliest and latest local dates of the group's events; a group with dates but no
    /// user is left out of the report.
    public mutating func setDates(model: ReportValue, position: ReportValue, first: ReportValue, last: ReportValue) {
        guard let at = index[Self.key(model, position)] else { return }
        groups[at].firstDate = first
        groups[at].lastDate = last
    }

    /// The columns of the report.
    package var columns: [ReportColumn] {
        var columns = [ReportColumn("modelInfo", role: .key)]
        if grouping.byPosition { columns.append(ReportColumn("feedPosition", role: .key)) }
        return columns + [
            ReportColumn("users", role: .count), ReportColumn("exposures", role: .count), ReportColumn("dislikes", role: .count),
            ReportColumn("dislikeRate", role: .ratio), ReportColumn("dislikeRateLow", role: .ratio), ReportColumn("dislikeRateHigh", role: .ratio),
            ReportColumn("firstDate", role: .measure), ReportColumn("lastDate", role: .measure),
            ReportColumn("difference", role: .ratio), ReportColumn("differenceLow", role: .ratio), ReportColumn("differenceHigh", role: .ratio),
            ReportColumn("relativeDifference", role: .ratio), ReportColumn("pValue", role: .measure), ReportColumn("sharedUsers", role: .count),
        ]
    }

    /// The report: one row per group, each against `baseline`'s group at the same position.
    ///
    /// - Throws: `QueryError.notFound` when `baseline` has no impression at all.
    public func report(baseline: String) throws -> GroupedReport {
        let baselineGroups = groups.filter { $0.model == .text(baseline) }
        guard !baselineGroups.isEmpty else {
            throw QueryError.notFound(name: "baseline", message: "baseline \(baseline) has no impression under these filters")
        }
        // Users in a fixed order, so that the sums (and every backend's answer) are the same to the last bit.
        func estimate(_ group: Group) -> RatioEstimate { RatioEstimate(group.users.sorted { Self.precedes($0.key, $1.key) }.map(\.value)) }
        var baselineAt: [Key: (estimate: RatioEstimate, users: Set<Bytewise<String>>)] = [:]
        for group in baselineGroups {
            baselineAt[Self.key(.null, group.position)] = (estimate(group), Set(group.users.keys))
        }
        func double(_ value: Double?) -> ReportValue { value.map(ReportValue.double) ?? .null }
        let rows = groups.map { group -> [ReportValue] in
            let mine = estimate(group)
            var row = [group.model]
            if grouping.byPosition { row.append(group.position) }
            row += [.int(Int64(mine.users)), .int(mine.exposures), .int(mine.dislikes),
                    double(mine.rate), double(mine.interval?.low), double(mine.interval?.high), group.firstDate, group.lastDate]
            guard group.model != .text(baseline), let base = baselineAt[Self.key(.null, group.position)],
                  let difference = mine.compared(with: base.estimate) else {
                return row + Array(repeating: .null, count: 6)
            }
            let shared = group.users.keys.reduce(0) { $0 + (base.users.contains($1) ? 1 : 0) }
            return row + [.double(difference.difference), double(difference.low), double(difference.high),
                          double(difference.relative), double(difference.pValue), .int(Int64(shared))]
        }
        return GroupedReport(columns: columns, rows: rows)
    }
}
