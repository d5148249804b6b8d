import TallyEvents
import TallyQuery

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
        try client.query(try ClickHouseSQL.bind(try QueryLibrary.clickHouseSQL(name), parameters, strict: true))
    }

    /// The text of `queries/clickhouse/NAME.sql`.
    public func savedQuery(_ name: String) throws -> String {
        try QueryLibrary.clickHouseSQL(name)
    }

    /// The rows of `queries/clickhouse/NAME.sql` with `parameters`.
    public func savedRows(_ name: String, parameters: [String: QueryValue]) throws -> [[ReportValue]] {
        try run(name, parameters).rows
    }

    /// Today in the report's zone.
    public func localToday(_ context: ReportContext) throws -> LocalDate {
        try today(context)
    }

    /// Runs read-only SQL with `{name:Type}` placeholders; the server refuses a statement that writes.
    public func adHoc(_ sql: String, parameters: [String: QueryValue]) throws -> GroupedReport {
        let result: ClickHouseResult
        do {
            result = try client.query(try ClickHouseSQL.bind(sql, parameters), settings: ["readonly": "2"])
        } catch ClickHouseError.server(_, _, let message) where message.hasPrefix("Code: 164,") {
            throw QueryError.writeRefused(sql)
        }
        return GroupedReport(columns: result.names.map { ReportColumn($0, role: .measure) }, rows: result.rows)
    }

    /// The rejected lines by file, line and position (of one file, or all).
    public func rejected(file: String?) throws -> GroupedReport {
        try adHoc(try savedQuery("rejected"), parameters: ["file": QueryValue(file)])
    }
}
