import ArgumentParser
import TallyQuery
import TallyRender

/// `report progress MATERIAL`: how far the reader got.
struct ProgressCommand: ReportCommand {
    static let definition = ReportCatalog.progress

    @Argument(help: help("materialId"))
    var material: String

    @OptionGroup var options: ReportOptions

    var values: [String: String?] { ["materialId": material] }
}
