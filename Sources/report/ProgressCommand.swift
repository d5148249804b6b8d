import ArgumentParser

/// `report progress MATERIAL`: how far the reader got.
struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "progress", abstract: "Reading progress of one material.")

    @Argument(help: "The materialId.")
    var material: String

    @OptionGroup var options: ReportOptions

    func run() throws {
        let progress = try options.reports().progress(options.context, materialId: material)
        Terminal.write(options.renderer().render(progress, as: options.format))
    }
}
