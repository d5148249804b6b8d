import ArgumentParser
import TallyQuery
import TallyRender

/// `report trend --days N`: active time per day, with the previous period.
struct TrendCommand: ReportCommand {
    static let definition = ReportCatalog.trend

    @OptionGroup var options: ReportOptions

    @Option(help: help("days"))
    var days = defaultInteger("days")

    var values: [String: String?] { ["days": days.description] }
}
