import Foundation

extension QueryLibrary {
    /// The ClickHouse text of `queries/clickhouse/NAME.sql`: the same reports as the SQLite
    /// files of the same name, computed from the event tables.
    public static func clickHouseSQL(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "sql", subdirectory: "queries/clickhouse") else {
            throw QueryError.unknownQuery("clickhouse/" + name)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
