import TallyQuery

extension TrendReport {
    /// The longest bar, in columns.
    private static let barWidth = 40

    /// Blocks of one to seven eighths of a column, for the end of a bar.
    private static let partialBlocks = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// One line per day (date, weekday, a bar scaled to the window's largest day, the duration,
    /// the materials count), then the window's total and its change from the previous period.
    /// With `color`, the header is bold and the bars green.
    func chart(color: Bool) -> String {
        let largest = days.map(\.activeSeconds).max() ?? 0
        let columns = [
            TextTable.Column(title: "date", alignment: .left),
            TextTable.Column(title: "day", alignment: .left),
            TextTable.Column(title: "activity", alignment: .left, style: .color256(34)),
            TextTable.Column(title: "active", alignment: .right),
            TextTable.Column(title: "materials", alignment: .right),
        ]
        let rows = days.map { day in
            [day.date.description, day.date.weekdaySymbol, TrendReport.bar(day.activeSeconds, largest: largest),
             Readable.duration(seconds: day.activeSeconds), String(day.materials)]
        }
        let footer = "total \(Readable.duration(seconds: totalActiveSeconds))"
            + " · previous \(Readable.count(days.count, "day")) \(Readable.duration(seconds: previousPeriodActiveSeconds))"
            + " · change \(Readable.change(from: previousPeriodActiveSeconds, to: totalActiveSeconds))"
        return TextTable(columns: columns, rows: rows).rendered(color: color) + "\n" + footer + "\n"
    }

    /// A bar of `barWidth` columns for `largest`, in eighths of a column; at least one eighth
    /// for any activity.
    private static func bar(_ seconds: Int, largest: Int) -> String {
        guard seconds > 0, largest > 0 else { return "" }
        let eighths = max(1, Int((Double(seconds) / Double(largest) * Double(barWidth * 8)).rounded()))
        return String(repeating: "█", count: eighths / 8) + partialBlocks[eighths % 8]
    }
}
