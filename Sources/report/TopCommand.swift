import ArgumentParser
import TallyQuery
import TallyRender

/// `report top --event E --by K`: the most frequent values.
struct TopCommand: ReportCommand {
    static let definition = ReportCatalog.top

    @OptionGroup var options: ReportOptions

    @Option(help: "The event name, such as api_request_failed.")
    var event: String

    @Option(help: "userId, sessionId, platform, appVersion or a property name.")
    var by = "userId"

    @Option(help: "How many rows.")
    var limit = 10

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1, got \(limit).") }
    }

    func run() throws {
        Terminal.write(try options.answer(.top(event: event, by: by, limit: limit)))
    }
}
