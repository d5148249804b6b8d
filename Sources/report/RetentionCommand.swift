import ArgumentParser
import TallyQuery
import TallyRender

/// `report retention --days N`: who comes back 1, 7 and 30 days after a day of reading.
struct RetentionCommand: ReportCommand {
    static let definition = ReportCatalog.retention

    @OptionGroup var options: ReportOptions

    @Option(help: "The window's length in days, 1...3660.")
    var days = 30

    func validate() throws {
        try ValidationError.wrapping { try ReportLogic.validate(days: days) }
    }

    func run() throws {
        Terminal.write(try options.answer(.retention(days: days)))
    }
}
