import ArgumentParser

/// `report progress MATERIAL`: how far the reader got.
struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "progress", abstract: "Reading progress of one material.")

    @Argument(help: "The materialId.")
    var material: String

    @OptionGroup var options: ReportOptions

    func run() throws {
        Terminal.write(try options.answer(.progress(materialId: material)))
    }
}
