import ArgumentParser
import TallyQuery
import TallyRender

/// `report continue`: the material to pick up again.
struct ContinueCommand: ReportCommand {
    static let definition = ReportCatalog.continueLearning

    @OptionGroup var options: ReportOptions
}
