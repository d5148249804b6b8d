import ArgumentParser
import TallyQuery
import TallyRender

/// `report trend --days N`: active time per day, with the previous period.
struct TrendCommand: ReportCommand {
    static let definition = ReportCatalog.trend

    @OptionGroup var options: ReportOptions

    @Option(help: "The window's length in days, 1...3660.")
    var days = 7

    func validate() throws {
        try ValidationError.wrapping { try ReportLogic.validate(days: days) }
    }

    func run() throws {
        Terminal.write(try options.answer(.trend(days: days)))
    }
}
