import ArgumentParser
import TallyQuery
import TallyRender

/// `report latency --event E --field F --by P`: nearest-rank percentiles.
struct LatencyCommand: ReportCommand {
    static let definition = ReportCatalog.latency

    @OptionGroup var options: ReportOptions

    @Option(help: help("event"))
    var event: String

    @Option(help: help("field"))
    var field: String

    @Option(help: help("by"))
    var by = defaultText("by")

    var values: [String: String?] { ["event": event, "field": field, "by": by] }
}
