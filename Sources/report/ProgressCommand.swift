import ArgumentParser
import TallyQuery
import TallyRender

/// `report progress MATERIAL`: how far the reader got.
struct ProgressCommand: ReportCommand {
    static let definition = ReportCatalog.progress

    @Argument(help: "The materialId.")
    var material: String

    @OptionGroup var options: ReportOptions

    func run() throws {
        Terminal.write(try options.answer(.progress(materialId: material)))
    }
}
