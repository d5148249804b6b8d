import ArgumentParser
import TallyQuery
import TallyRender

/// `report heatmap --days N`: a calendar of active days, five levels.
struct HeatmapCommand: ReportCommand {
    static let definition = ReportCatalog.heatmap

    @OptionGroup var options: ReportOptions

    @Option(help: help("days"))
    var days = defaultInteger("days")

    @Option(help: "The first day of the calendar's weeks: sunday or monday.")
    var weekStart: WeekStart = .sunday

    var values: [String: String?] { ["days": days.description] }
}
