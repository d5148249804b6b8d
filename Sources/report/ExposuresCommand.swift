import ArgumentParser

/// `report exposures --by …`: exposure counts, one per page instance and item.
struct ExposuresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "exposures", abstract: "Exposure counts by day, page, item, model or position.")

    @OptionGroup var options: ReportOptions

    @Option(help: "day, page, item, model or position.")
    var by = "day"

    func validate() throws {
        guard ["day", "page", "item", "model", "position"].contains(by) else {
            throw ValidationError("--by must be day, page, item, model or position, got \"\(by)\".")
        }
    }

    func run() throws {
        Terminal.write(try options.answer(.exposures(by: by)))
    }
}
