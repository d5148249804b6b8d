import ArgumentParser
import TallyQuery
import TallyRender

/// `report summary`: totals, today, the week, streaks, materials.
struct SummaryCommand: ReportCommand {
    static let definition = ReportCatalog.summary

    @OptionGroup var options: ReportOptions
}
