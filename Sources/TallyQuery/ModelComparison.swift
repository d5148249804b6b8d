import TallyEvents

/// The model comparison (`metrics.md`, `report compare --baseline B`): what a backend reads, per
/// group of model version (and feed position) the counts of each user and the dates it served,
/// and the rows computed from them, each group against the baseline's group at the same position.
///
/// A backend adds its rows in any order; the report orders its rows as `dislike-rate` does
/// (models, then positions or buckets in the order given, no value last) and computes the
/// statistics alike for every backend (`RatioEstimate`).
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

    /// A group's key: the model and the position as the backend gave them, texts by their bytes.
    private struct Key: Hashable {
        @Bytewise var model: String?
        var position: Position
    }

    /// A position (or bucket) as a key: whole numbers by value, texts by their bytes.
    private enum Position: Hashable {
        case none
        case number(Int64)
        case text(Bytewise<String>)
    }

    /// How the rows are grouped: by model, or by model and position (bucketed or not).
    public let grouping: DislikeGrouping
    private var groups: [Group] = []
    private var index: [Key: Int] = [:]
    /// The group of the last row added: a group's rows tend to come together.
    private var last: (model: ReportValue, position: ReportValue, at: Int)?

    /// An empty comparison grouped by `grouping` (which always groups by model).
    public init(grouping: DislikeGrouping) {
        self.grouping = DislikeGrouping(byModel: true, byPosition: grouping.byPosition, buckets: grouping.buckets)
    }

    private static func key(_ model: ReportValue, _ position: ReportValue) -> Key {
        let place: Position = switch position {
        case .null: .none
        case .int(let v): .number(v)
        case .double(let v): .text(Bytewise(String(v)))
        case .text(let v), .json(let v): .text(Bytewise(v))
        }
        let name: String? = switch model {
        case .null: nil
        case .int(let v): String(v)
        case .double(let v): String(v)
        case .text(let v), .json(let v): v
        }
        return Key(model: name, position: place)
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

    /// Adds counts of a user in the group of `model` at `position` (`.null` without positions):
    /// `exposures` (n) and `dislikes` (d) as `dislike-rate` counts them. A user's rows in one group
    /// add up; a user whose n adds up to 0 is not among the group's users.
    public mutating func add(model: ReportValue, position: ReportValue, user: String, exposures: Int64, dislikes: Int64) {
        let at = group(model, position)
        groups[at].users[Bytewise(user), default: RatioEstimate.Counts(exposures: 0, dislikes: 0)].add(exposures: exposures, dislikes: dislikes)
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

    /// Whether `a` comes before `b` in the report: by model, then by position (a bucket by its
    /// place among `buckets`), texts by their bytes, no value last.
    private static func precedes(_ a: Group, _ b: Group, buckets: [DislikeGrouping.Bucket]) -> Bool {
        func rank(_ value: ReportValue) -> (Int, Int64, String) {
            switch value {
            case .null: (2, 0, "")
            case .int(let v): (0, v, "")
            case .double(let v): (0, Int64(exactly: v) ?? 0, String(v))
            case .text(let v), .json(let v): (1, Int64(buckets.firstIndex { $0.label == v } ?? buckets.count), v)
            }
        }
        func ordered(_ x: ReportValue, _ y: ReportValue) -> Bool? {
            let (a, b) = (rank(x), rank(y))
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            return a.2.utf8.elementsEqual(b.2.utf8) ? nil : a.2.utf8.lexicographicallyPrecedes(b.2.utf8)
        }
        return ordered(a.model, b.model) ?? ordered(a.position, b.position) ?? false
    }

    /// The report: one row per group, each against `baseline`'s group at the same position.
    ///
    /// - Throws: `QueryError.notFound` when `baseline` has no impression at all.
    public func report(baseline: String) throws -> GroupedReport {
        let groups = groups.compactMap { group -> Group? in
            var group = group
            if group.users.values.contains(where: { $0.exposures <= 0 }) {
                group.users = group.users.filter { $0.value.exposures > 0 }
            }
            return group.users.isEmpty ? nil : group
        }
        guard groups.contains(where: { $0.model == .text(baseline) }) else {
            throw QueryError.notFound(name: "baseline", message: "baseline \(baseline) has no impression under these filters")
        }
        let estimates = groups.map { RatioEstimate($0.users.values) }
        var baselineAt: [Key: (estimate: RatioEstimate, users: [Bytewise<String>: RatioEstimate.Counts])] = [:]
        for (group, estimate) in zip(groups, estimates) where group.model == .text(baseline) {
            baselineAt[Self.key(.null, group.position)] = (estimate, group.users)
        }
        func double(_ value: Double?) -> ReportValue { value.map(ReportValue.double) ?? .null }
        let rows = groups.indices.sorted { Self.precedes(groups[$0], groups[$1], buckets: grouping.buckets) }.map { at -> [ReportValue] in
            let group = groups[at], mine = estimates[at]
            var row = [group.model]
            if grouping.byPosition { row.append(group.position) }
            row += [.int(Int64(mine.users)), .int(mine.exposures), .int(mine.dislikes),
                    double(mine.rate), double(mine.interval?.low), double(mine.interval?.high), group.firstDate, group.lastDate]
            guard group.model != .text(baseline), let base = baselineAt[Self.key(.null, group.position)],
                  let difference = mine.compared(with: base.estimate) else {
                return row + Array(repeating: .null, count: 6)
            }
            let shared = group.users.keys.reduce(0) { $0 + (base.users[$1] == nil ? 0 : 1) }
            return row + [.double(difference.difference), double(difference.low), double(difference.high),
                          double(difference.relative), double(difference.pValue), .int(Int64(shared))]
        }
        return GroupedReport(columns: columns, rows: rows)
    }
}
