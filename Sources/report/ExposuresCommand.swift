import ArgumentParser
import TallyQuery
import TallyRender

/// `report exposures --by …`: exposure counts, one per page instance and item.
struct ExposuresCommand: ReportCommand {
    static let definition = ReportCatalog.exposures

    @OptionGroup var options: ReportOptions

    @Option(help: "day, page, item, model or position.")
    var by = "day"

    @OptionGroup var filters: FeedFilterOptions

    func validate() throws {
        _ = try grouping()
    }

    /// The typed `--by`; its error reads as the flag's (`--by must be …`).
    func grouping() throws -> ExposureGrouping {
        do {
            return try ExposureGrouping(by: by)
        } catch QueryError.invalidParameter(_, let message) {
            throw ValidationError("--\(message).")
        }
    }

    func run() throws {
        Terminal.write(try options.answer(.exposures(by: try grouping(), filter: try filters.filter())))
    }
}
