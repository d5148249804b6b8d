import ArgumentParser

/// `report rejected`: the lines ingest refused, with their code and message.
struct RejectedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rejected", abstract: "List the lines that failed validation.")

    @OptionGroup var options: ReportOptions

    @Option(help: "Only the lines of this file (as named when it was ingested).")
    var file: String?

    func run() throws {
        let report = try options.reports().rejected(file: file)
        Terminal.write(options.renderer().render(report, as: options.format))
    }
}
