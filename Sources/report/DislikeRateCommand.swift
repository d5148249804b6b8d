import ArgumentParser
import TallyQuery
import TallyRender

/// `report dislike-rate`: dislikes per exposure by model version and feed position.
struct DislikeRateCommand: ReportCommand {
    static let definition = ReportCatalog.dislikeRate

    @OptionGroup var options: ReportOptions

    @Option(help: "model, position or model,position.")
    var by = "model,position"

    @Option(help: ArgumentHelp("Group positions into ranges, such as 0-4,5-9,10-.", valueName: "ranges"))
    var positionBuckets: String?

    @Option(help: ArgumentHelp("Add the K most frequent reasons of final dislikes per group.", valueName: "K"))
    var topReasons = 0

    @OptionGroup var filters: FeedFilterOptions

    func validate() throws {
        _ = try grouping()
        guard topReasons >= 0 else { throw ValidationError("--top-reasons must be 0 or more, got \(topReasons).") }
    }

    func grouping() throws -> DislikeGrouping {
        try ValidationError.wrapping {
            try DislikeGrouping(by: by, buckets: try positionBuckets.map(DislikeGrouping.buckets) ?? [])
        }
    }

    func run() throws {
        Terminal.write(try options.answer(.dislikeRate(try grouping(), topReasons: topReasons, filter: try filters.filter())))
    }
}
