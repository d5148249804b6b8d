import ArgumentParser
import TallyQuery

/// `report trend --days N`: active time per day, with the previous period.
struct TrendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trend", abstract: "Active time per day of the last N days.")

    @OptionGroup var options: ReportOptions

    @Option(help: "The window's length in days, 1...3660.")
    var days = 7

    func validate() throws {
        try ValidationError.wrapping { try Reports.validate(days: days) }
    }

    func run() throws {
        Terminal.write(try options.answer(.trend(days: days)))
    }
}
