import ArgumentParser
import TallyQuery
import TallyRender

/// `report top --event E --by K`: the most frequent values.
struct TopCommand: ReportCommand {
    static let definition = ReportCatalog.top

    @OptionGroup var options: ReportOptions

    @Option(help: help("event"))
    var event: String

    @Option(help: help("by"))
    var by = defaultText("by")

    @Option(help: help("limit"))
    var limit = defaultInteger("limit")

    var values: [String: String?] { ["event": event, "by": by, "limit": limit.description] }
}
