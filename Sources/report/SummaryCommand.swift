import ArgumentParser

/// `report summary`: totals, today, the week, streaks, materials.
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "summary", abstract: "The learning summary: totals, streaks and materials.")

    @OptionGroup var options: ReportOptions

    func run() throws {
        let summary = try options.reports().summary(options.context)
        Terminal.write(options.renderer().render(summary, as: options.format))
    }
}
