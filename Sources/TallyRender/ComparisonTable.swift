import TallyQuery

/// The model comparison as a table a person reads at a glance: per row the users (and those
/// shared with the baseline), the dates served, the rate with its interval, the difference from
/// the baseline with its interval drawn as a small forest plot on an axis shared by every row
/// (the baseline's zero marked `│`), and in words whether the interval excludes zero; then one
/// line per warning that bears on reading it.
///
/// The plot's glyphs read without color (`├──●──┤`); with color, an interval wholly below zero
/// (fewer dislikes than the baseline) is green and one wholly above it red.
struct ComparisonTable {
    /// The comparison, with the columns `ModelComparison` gives.
    let report: GroupedReport
    /// The baseline model.
    let baseline: String

    /// The plot's width in columns.
    static let plotWidth = 25
    /// Below this many users the delta method is unreliable (`metrics.md`).
    static let fewUsers = 30

    /// One row of the comparison, read by column name.
    private struct Row {
        var model: ReportValue
        var position: ReportValue?
        var users: Int64
        var sharedUsers: Int64?
        var firstDate: String?
        var lastDate: String?
        var exposures: Int64
        var dislikes: Int64
        var rate: Double?
        var rateLow: Double?
        var rateHigh: Double?
        var difference: Double?
        var low: Double?
        var high: Double?

        var modelName: String { model.text ?? Readable.missing }
        var served: String { firstDate.map { "\($0)…\(lastDate ?? $0)" } ?? Readable.missing }
    }

    private var rows: [Row] {
        let index = Dictionary(report.columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        return report.rows.map { values in
            func value(_ name: String) -> ReportValue { index[name].map { values[$0] } ?? .null }
            return Row(model: value("modelInfo"), position: index["feedPosition"].map { values[$0] },
                       users: value("users").integer ?? 0, sharedUsers: value("sharedUsers").integer,
                       firstDate: value("firstDate").text, lastDate: value("lastDate").text,
                       exposures: value("exposures").integer ?? 0, dislikes: value("dislikes").integer ?? 0,
                       rate: value("dislikeRate").number, rateLow: value("dislikeRateLow").number, rateHigh: value("dislikeRateHigh").number,
                       difference: value("difference").number, low: value("differenceLow").number, high: value("differenceHigh").number)
        }
    }

    /// The table and its warnings, each line ending in a newline.
    func rendered(color: Bool) -> String {
        let rows = self.rows
        let axis = Axis(rows.flatMap { [$0.low ?? $0.difference, $0.high ?? $0.difference].compactMap { $0 } })
        var columns = [TextTable.Column(title: "model", alignment: .left)]
        if report.columns.contains(where: { $0.name == "feedPosition" }) { columns.append(.init(title: "position", alignment: .right)) }
        columns += [
            .init(title: "users", alignment: .right), .init(title: "shared", alignment: .right), .init(title: "served", alignment: .left),
            .init(title: "exposures", alignment: .right), .init(title: "dislikes", alignment: .right),
            .init(title: "dislike rate [95% CI]", alignment: .left), .init(title: "vs \(baseline) [95% CI]", alignment: .left),
            .init(title: axis.header, alignment: .left), .init(title: "", alignment: .left),
        ]
        var table = TextTable(columns: columns, rows: [])
        for row in rows {
            var cells = [row.modelName]
            if let position = row.position { cells.append(position.display(as: .key)) }
            cells += [String(row.users), row.sharedUsers.map(String.init) ?? Readable.missing, row.served, String(row.exposures), String(row.dislikes),
                      Self.rate(row), Self.difference(row, baseline: baseline), axis.plot(row.difference, row.low, row.high), Self.verdict(row, baseline: baseline)]
            table.rows.append(cells)
            let style = Self.style(row)
            table.styles.append([ANSIStyle?](repeating: nil, count: cells.count - 2) + [style, style])
        }
        return table.rendered(color: color) + warnings(rows).map { "warning: \($0)\n" }.joined()
    }

    // MARK: - Cells

    private static func rate(_ row: Row) -> String {
        guard let rate = row.rate else { return Readable.missing }
        guard let low = row.rateLow, let high = row.rateHigh else { return Readable.percent(rate) }
        return "\(Readable.percent(rate)) [\(Readable.percent(low)), \(Readable.percent(high))]"
    }

    private static func difference(_ row: Row, baseline: String) -> String {
        guard let difference = row.difference else { return row.model == .text(baseline) ? "" : Readable.missing }
        guard let low = row.low, let high = row.high else { return Readable.points(difference) }
        return "\(Readable.points(difference)) [\(Readable.points(low).dropLast(3)), \(Readable.points(high).dropLast(3))]"
    }

    private static func verdict(_ row: Row, baseline: String) -> String {
        if row.model == .text(baseline) { return "baseline" }
        guard row.difference != nil else { return "no baseline here" }
        guard let low = row.low, let high = row.high else { return "no interval (fewer than 2 users)" }
        if high < 0 { return "lower: interval excludes 0" }
        if low > 0 { return "higher: interval excludes 0" }
        return "unclear: interval includes 0"
    }

    private static func style(_ row: Row) -> ANSIStyle? {
        guard let low = row.low, let high = row.high else { return nil }
        if high < 0 { return .color256(34) }
        if low > 0 { return .color256(160) }
        return nil
    }

    // MARK: - Warnings

    private func warnings(_ rows: [Row]) -> [String] {
        func names(_ selected: [Row]) -> String {
            var seen = Set<String>()
            return selected.map(\.modelName).filter { seen.insert($0).inserted }.joined(separator: ", ")
        }
        var out: [String] = []
        var baselineDates: [String: String] = [:]
        for row in rows where row.model == .text(baseline) {
            baselineDates[row.position?.display(as: .key) ?? ""] = row.served
        }
        let otherDates = rows.filter { row in
            row.model != .text(baseline) && baselineDates[row.position?.display(as: .key) ?? ""].map { $0 != row.served } ?? false
        }
        if !otherDates.isEmpty {
            out.append("\(names(otherDates)) served on other dates than \(baseline): a rollout is not a randomised experiment, so part of a difference may come from the period.")
        }
        let shared = rows.filter { ($0.sharedUsers ?? 0) * 2 > $0.users }
        if !shared.isEmpty {
            out.append("most users of \(names(shared)) also saw \(baseline): the interval treats the two as independent and is approximate.")
        }
        let few = rows.filter { $0.users < Self.fewUsers }
        if !few.isEmpty {
            let one = Set(few.map(\.modelName)).count == 1
            out.append("\(names(few)) \(one ? "has" : "have") fewer than \(Self.fewUsers) users: the delta-method interval is unreliable (with 3 users it can be narrower than Wilson's).")
        }
        return out
    }

    // MARK: - The shared axis

    /// The axis every row's plot is drawn on: from the lowest interval end to the highest, zero
    /// always included.
    private struct Axis {
        let low: Double
        let high: Double

        init(_ values: [Double]) {
            let low = min(0, values.min() ?? 0), high = max(0, values.max() ?? 0)
            (self.low, self.high) = low == high ? (-0.01, 0.01) : (low, high)
        }

        /// The column of `value`.
        func column(_ value: Double) -> Int {
            let fraction = (value - low) / (high - low)
            return min(ComparisonTable.plotWidth - 1, max(0, Int((fraction * Double(ComparisonTable.plotWidth - 1)).rounded())))
        }

        /// The header: the axis's ends in percentage points, and the mark of zero.
        var header: String {
            "\(Readable.points(low)) … \(Readable.points(high)), │ = 0"
        }

        /// A row's plot: `├──●──┤` over the interval, `●` alone without one, `│` at zero.
        func plot(_ difference: Double?, _ low: Double?, _ high: Double?) -> String {
            var cells = Array(repeating: Character(" "), count: ComparisonTable.plotWidth)
            let zero = column(0)
            cells[zero] = "│"
            if let low, let high {
                let from = column(low), to = column(high)
                for index in from...to { cells[index] = index == zero ? "┼" : "─" }
                cells[from] = "├"
                cells[to] = "┤"
            }
            if let difference { cells[column(difference)] = "●" }
            return String(cells).droppingTrailingSpaces
        }
    }
}

// MARK: - Reading values

private extension ReportValue {
    var integer: Int64? {
        switch self {
        case .int(let value): value
        case .double(let value): Int64(exactly: value)
        default: nil
        }
    }

    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
