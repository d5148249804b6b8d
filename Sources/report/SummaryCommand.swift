import ArgumentParser

/// `report summary`: totals, today, the week, streaks, materials.
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "summary", abstract: "The learning summary: totals, streaks and materials.")

    @OptionGroup var options: ReportOptions

    func run() throws {
        Terminal.write(try options.answer(.summary))
    }
}
