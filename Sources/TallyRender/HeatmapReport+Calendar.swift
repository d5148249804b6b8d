import TallyEvents
import TallyQuery

extension HeatmapReport {
    /// The glyphs of levels 0...4, which read without color.
    private static let glyphs = ["·", "░", "▒", "▓", "█"]
    /// The 256-color palette entries of levels 0...4: grey, then greens from dark to bright.
    private static let colors = [240, 22, 28, 34, 40]
    /// Weeks side by side before the calendar wraps: 53 (a year) fit in 110 columns.
    private static let weeksPerBlock = 53
    /// The weekdays labelled on the left: Mon, Wed, Fri.
    private static let labelledWeekdays: Set<Int> = [1, 3, 5]

    /// A GitHub-style calendar: one column per week, one row per weekday starting on
    /// `weekStart`, month labels above the weeks where a month begins, then a legend with the
    /// thresholds and a line of totals. A window longer than 53 weeks wraps into blocks.
    /// With `color`, each glyph is also colored by its level.
    func calendar(weekStart: WeekStart, color: Bool) -> String {
        let dates = days.map(\.date)
        guard let first = dates.min(), let last = dates.max() else { return "no days\n" }
        let levels = Dictionary(days.map { ($0.date, $0.level) }, uniquingKeysWith: max)
        let gridStart = first.adding(days: -((first.weekday - weekStart.firstWeekday + 7) % 7))
        let weekCount = (last.dayNumber - gridStart.dayNumber) / 7 + 1
        let window = first...last

        var out = "\(first) to \(last) · \(Readable.count(last.dayNumber - first.dayNumber + 1, "day"))\n"
        for blockStart in stride(from: 0, to: weekCount, by: HeatmapReport.weeksPerBlock) {
            let weeks = blockStart..<min(weekCount, blockStart + HeatmapReport.weeksPerBlock)
            let columns = weeks.map { week in
                (0..<7).map { gridStart.adding(days: week * 7 + $0) }.filter(window.contains)
            }
            out += "\n" + HeatmapReport.monthLine(columns) + "\n"
            for row in 0..<7 {
                let weekday = (weekStart.firstWeekday + row) % 7
                var line = HeatmapReport.labelledWeekdays.contains(weekday) ? LocalDate.weekdaySymbols[weekday] : "   "
                for week in weeks {
                    let date = gridStart.adding(days: week * 7 + row)
                    line += " " + (levels[date].map { HeatmapReport.glyph(level: $0, color: color) } ?? " ")
                }
                out += line.droppingTrailingSpaces + "\n"
            }
        }
        return out + "\n" + legend(color: color) + "\n" + totals + "\n"
    }

    /// Month abbreviations (three columns wide, and allowed past the last week) above the week
    /// columns holding a month's first day; the first column also gets its month when that
    /// label fits before the next one.
    private static func monthLine(_ columns: [[LocalDate]]) -> String {
        var labels = columns.indices.compactMap { index in
            columns[index].first { $0.components.day == 1 }.map { (index, $0.monthSymbol) }
        }
        if let date = columns.first?.first, labels.first.map({ $0.0 >= 2 }) ?? true {
            labels.insert((0, date.monthSymbol), at: 0)
        }
        var line = Array(repeating: Character(" "), count: 4 + 2 * columns.count + 3)
        for (index, name) in labels {
            line.replaceSubrange((4 + 2 * index)..<(4 + 2 * index + 3), with: name)
        }
        return String(line).droppingTrailingSpaces
    }

    /// The glyph of a level, colored when asked.
    private static func glyph(level: Int, color: Bool) -> String {
        let level = min(max(level, 0), glyphs.count - 1)
        return color ? ANSIStyle.color256(colors[level]).apply(glyphs[level]) : glyphs[level]
    }

    /// `Less · ░ ▒ ▓ █ More`, then the upper bound of each level as a duration.
    private func legend(color: Bool) -> String {
        let glyph = { HeatmapReport.glyph(level: $0, color: color) }
        var line = "Less " + (0...4).map(glyph).joined(separator: " ") + " More"
        if thresholds.count == 3 {
            let bounds = thresholds.map { Readable.duration(seconds: $0) }
            line += "   \(glyph(1)) ≤ \(bounds[0])  \(glyph(2)) ≤ \(bounds[1])  \(glyph(3)) ≤ \(bounds[2])  \(glyph(4)) > \(bounds[2])"
        }
        return line
    }

    /// The window's active days and its largest day.
    private var totals: String {
        guard activeDays > 0, let top = days.first(where: { $0.activeSeconds == maxActiveSeconds }) else {
            return "no active days"
        }
        return "\(Readable.count(activeDays, "active day")) · max day \(Readable.duration(seconds: maxActiveSeconds)) on \(top.date)"
    }
}
