import ArgumentParser
import TallyQuery
import TallyRender

/// `report heatmap --days N`: a calendar of active days, five levels.
struct HeatmapCommand: ReportCommand {
    static let definition = ReportCatalog.heatmap

    @OptionGroup var options: ReportOptions

    @Option(help: "The window's length in days, 1...3660.")
    var days = 365

    @Option(help: "The first day of the calendar's weeks: sunday or monday.")
    var weekStart: WeekStart = .sunday

    func validate() throws {
        try ValidationError.wrapping { try ReportLogic.validate(days: days) }
    }

    func run() throws {
        Terminal.write(try options.answer(.heatmap(days: days), weekStart: weekStart))
    }
}
