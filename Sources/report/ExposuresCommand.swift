import ArgumentParser
import TallyQuery
import TallyRender

/// `report exposures --by …`: exposure counts, one per page instance and item.
struct ExposuresCommand: ReportCommand {
    static let definition = ReportCatalog.exposures

    @OptionGroup var options: ReportOptions

    @Option(help: help("by"))
    var by = defaultText("by")

    @OptionGroup var filters: FeedFilterFlags<ExposuresCommand>

    var values: [String: String?] { filters.values.merging(["by": by]) { $1 } }
}
