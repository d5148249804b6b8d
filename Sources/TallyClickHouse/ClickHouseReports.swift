import TallyEvents
import TallyQuery
import TallySupport

/// Computes every documented report (`metrics.md`) on a ClickHouse server from the event
/// tables, running `queries/clickhouse/*.sql`; the answers are the same model values as the
/// SQLite backend's, and the learning reports share its computation (`LearningFacts`).
public final class ClickHouseReports: ReportBackend {
    /// The client the queries go through.
    public let client: ClickHouseClient

    /// Creates the report layer over a server and database.
    public init(client: ClickHouseClient) {
        self.client = client
    }

    /// Runs saved query `name` with `parameters` bound to its `{name:Type}` placeholders; one
    /// not given throws (strict binding: a misspelled name never reads as "all users").
    func run(_ name: String, _ parameters: [String: QueryValue]) throws -> ClickHouseResult {
        try client.query(try ClickHouseSQL.bind(try ClickHouseQueries.sql(name), parameters, strict: true))
    }

    /// The text of `queries/clickhouse/NAME.sql`.
    public func savedQuery(_ name: String) throws -> String {
        try ClickHouseQueries.sql(name)
    }

    /// The rows of `queries/clickhouse/NAME.sql` with `parameters`.
    public func savedRows(_ name: String, parameters: [String: QueryValue]) throws -> [[ReportValue]] {
        try run(name, parameters).rows
    }

    /// Today in the report's zone.
    public func localToday(_ context: ReportContext) throws -> LocalDate {
        try today(context)
    }

    /// Runs read-only SQL with `{name:Type}` placeholders. A statement that does not begin with
    /// a reading keyword is refused here (`AdHocStatement`); the server refuses writes, settings
    /// and table functions (`readonly = 1`, sent after every other setting) and stops a statement
    /// that runs past `interrupter`'s time limit (`max_execution_time`, whole seconds, at least 1).
    public func adHoc(_ sql: String, parameters: [String: QueryValue], interrupter: StatementInterrupter? = nil) throws -> GroupedReport {
        guard AdHocStatement.isReading(sql) else { throw QueryError.writeRefused(sql) }
        var settings = ["readonly": "1"]
        if let limit = interrupter?.timeLimit {
            settings["max_execution_time"] = String(max(1, Int((Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18).rounded(.up))))
        }
        let result: ClickHouseResult
        do {
            result = try client.query(try ClickHouseSQL.bind(sql, parameters), settings: settings)
        } catch ClickHouseError.server(_, _, let message) where ClickHouseError.code(in: message) == ClickHouseError.readonly {
            throw Self.readOnlyRefusal(message)
        } catch let error as ClickHouseError where error.code == ClickHouseError.timeoutExceeded && interrupter?.timeLimit != nil {
            throw StatementInterrupted(cause: .timeLimit(interrupter?.timeLimit ?? .zero))
        }
        return GroupedReport(columns: result.names.map { ReportColumn($0, role: .measure) }, rows: result.rows)
    }

    /// What `readonly = 1` refused in a reading statement (only those are sent): a setting
    /// (18.16: "Cannot execute SET query…", current releases: "Cannot modify 'NAME' setting…"),
    /// else a table function (18.16: "Table functions are forbidden…", current releases: "Cannot
    /// execute query in readonly mode", as for a write).
    private static func readOnlyRefusal(_ message: String) -> AdHocRefused {
        if message.contains("SET query") || message.contains(" setting in readonly mode") {
            return AdHocRefused(reason: "settings cannot be changed in ad hoc SQL")
        }
        return AdHocRefused(reason: "table functions such as url(), remote() and file() are not allowed in ad hoc SQL")
    }

    /// The rejected lines by file, line and position (of one file, or all).
    public func rejected(file: String?) throws -> GroupedReport {
        try adHoc(try savedQuery("rejected"), parameters: ["file": QueryValue(file)])
    }
}
