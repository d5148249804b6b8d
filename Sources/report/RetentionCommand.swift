import ArgumentParser
import TallyQuery
import TallyRender

/// `report retention --days N`: of each day's active users, the share back 1, 7 and 30 days later.
struct RetentionCommand: ReportCommand {
    static let definition = ReportCatalog.retention

    @OptionGroup var options: ReportOptions

    @Option(help: help("days"))
    var days = defaultInteger("days")

    var values: [String: String?] { ["days": days.description] }
}
