import Foundation
import TallyQuery

/// The ClickHouse text of the saved queries (`Sources/TallyClickHouse/queries/NAME.sql`), loaded
/// from the module's resources: the same reports as the SQLite files of the same name, computed
/// from the event tables.
public enum ClickHouseQueries {
    /// The SQL of `queries/NAME.sql`.
    ///
    /// - Throws: `QueryError.noClickHouseTwin` for a SQLite query that has no ClickHouse file by
    ///   design, `QueryError.unknownQuery` for any other unknown name.
    public static func sql(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "sql", subdirectory: "queries") else {
            if let reason = withoutClickHouseTwin[name] {
                throw QueryError.noClickHouseTwin(name, reason: reason)
            }
            throw QueryError.unknownQuery("clickhouse/" + name)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Names of every bundled ClickHouse query, sorted.
    public static var names: [String] {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("queries"),
              let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return files.filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// The saved SQLite queries that have no ClickHouse file of the same name, and why: each
    /// reads something only the SQLite store keeps, and ClickHouse answers the same report from
    /// its event tables.
    public static let withoutClickHouseTwin: [String: String] = [
        "latency_values": "ClickHouse ranks the values on the server (latency)",
        "latency_row": "ClickHouse ranks the values on the server (latency)",
        "dislike_rate_models": "ClickHouse counts the filtered rates from the feed events (dislike_rate_scan)",
        "compare_dates_models": "ClickHouse reads the models' dates from the feed events (compare_dates)",
        "exposures_slices": "ClickHouse counts the filtered exposures from the exposure events (exposures_scan)",
    ]

    /// The ClickHouse queries that have no SQLite file of the same name, and why.
    public static let withoutSQLiteTwin: [String: String] = [
        "latency": "SQLite reads the events (latency_values, latency_row) and ranks the values in Swift",
        "model_dates": "SQLite reads the models' dates under any filter from model_days (compare_dates_models)",
    ]
}
