import ArgumentParser
import TallyQuery
import TallyRender

/// `report dislike-rate`: dislikes per exposure by model version and feed position.
struct DislikeRateCommand: ReportCommand {
    static let definition = ReportCatalog.dislikeRate

    @OptionGroup var options: ReportOptions

    @Option(help: help("by"))
    var by = defaultText("by")

    @Option(help: help("positionBuckets"))
    var positionBuckets: String?

    @Option(help: help("topReasons"))
    var topReasons = defaultInteger("topReasons")

    @OptionGroup var filters: FeedFilterFlags<DislikeRateCommand>

    var values: [String: String?] {
        filters.values.merging(["by": by, "positionBuckets": positionBuckets, "topReasons": topReasons.description]) { $1 }
    }
}
