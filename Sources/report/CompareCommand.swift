import ArgumentParser
import TallyQuery
import TallyRender

/// `report compare --baseline B`: each model's dislike rate against the baseline's, users as the unit.
struct CompareCommand: ReportCommand {
    static let definition = ReportCatalog.compare

    @OptionGroup var options: ReportOptions

    @Option(help: help("baseline"))
    var baseline: String

    @Option(help: help("by"))
    var by = defaultText("by")

    @Option(help: help("positionBuckets"))
    var positionBuckets: String?

    @OptionGroup var filters: FeedFilterFlags<CompareCommand>

    var values: [String: String?] {
        filters.values.merging(["baseline": baseline, "by": by, "positionBuckets": positionBuckets]) { $1 }
    }
}
