import ArgumentParser
import Foundation
import TallyClickHouse
import TallyEvents
import TallyQuery
import TallyRender
import TallySQLite

/// The options every report takes: which store, whose events, when "now" is, which zone, which format.
struct ReportOptions: ParsableArguments {
    @Option(help: "The store file (default: \(StoreFile.defaultHelp)).")
    var db: String?

    @Option(help: "Only this user's events (default: all users together).")
    var user: String?

    @Option(help: ArgumentHelp("The current instant, ISO-8601 or milliseconds since the epoch (default: the clock).", valueName: "instant"))
    var now: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The report's zone as ±HH:MM (default: the user's latest offset, else UTC).", valueName: "±HH:MM"))
    var tz: String?

    @Option(help: ArgumentHelp(OutputFormat.choices + "."))
    var format: OutputFormat = .table

    @OptionGroup var storage: BackendOptions

    mutating func validate() throws {
        if let now, Instant.parse(nowArgument: now) == nil {
            throw ValidationError("--now must be an ISO-8601 instant (2026-11-20T12:00:00Z) or milliseconds since the epoch, got \"\(now)\".")
        }
        if let tz, UTCOffset.minutes(tz) == nil {
            throw ValidationError("--tz must be an offset from -12:00 to +14:00 such as +08:00, got \"\(tz)\".")
        }
    }

    /// The store path: `--db`, else `StoreFile`'s default.
    var storePath: String {
        StoreFile.path(db)
    }

    /// The report context; "now" is read from the clock here, at the edge, and nowhere else.
    var context: ReportContext {
        let nowMs = now.flatMap(Instant.parse(nowArgument:)) ?? Int64(Date().timeIntervalSince1970 * 1000)
        return ReportContext(user: user, nowMs: nowMs, timezoneOffsetMinutes: tz.flatMap(UTCOffset.minutes))
    }

    /// The report layer of the chosen backend: the store opened read-only, or the ClickHouse server.
    func reports() throws -> any ReportBackend {
        switch storage.backend {
        case .sqlite:
            let store = try EventStore(readingAt: storePath)
            if store.isImmutable {
                Terminal.writeError("note: \(storePath) is in a folder that cannot be written; reading it immutable (a writer working on it now would not be seen).\n")
            }
            return SQLiteReports(store: store)
        case .clickhouse: return ClickHouseReports(client: try storage.clickHouseClient())
        }
    }

    /// A renderer: colors only for a table on a terminal, and never with `NO_COLOR` set.
    func renderer(weekStart: WeekStart = .sunday) -> Renderer {
        Renderer(color: Terminal.wantsColor(format: format), weekStart: weekStart)
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension WeekStart: ExpressibleByArgument {}

// MARK: - Answering

extension ReportOptions {
    /// Answers `question` over the store in these options' context and format: the same step
    /// `report serve` takes for its GET endpoints.
    func answer(_ question: ReportQuestion, weekStart: WeekStart = .sunday) throws -> String {
        try reports().answer(question, context: context, renderer: renderer(weekStart: weekStart), format: format)
    }
}
