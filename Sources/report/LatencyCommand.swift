import ArgumentParser
import TallyQuery
import TallyRender

/// `report latency --event E --field F --by P`: nearest-rank percentiles.
struct LatencyCommand: ReportCommand {
    static let definition = ReportCatalog.latency

    @OptionGroup var options: ReportOptions

    @Option(help: "The event name, such as view_loaded.")
    var event: String

    @Option(help: "The numeric property measured, such as load_duration_ms.")
    var field: String

    @Option(help: "The property to group by, such as app_version (appVersion falls back to the event's own).")
    var by = "appVersion"

    func run() throws {
        Terminal.write(try options.answer(.latency(event: event, field: field, by: by)))
    }
}
