import TallyClickHouse
import TallyIngest
import TallyQuery
import TallySQLite
import TallyServer

/// `report serve --backend clickhouse`: the reports of `ClickHouseReports`, one
/// `ClickHouseIngestor` for the server's writer, and a version made of the tables' row counts.
struct ClickHouseServerBackend: ServerBackend {
    /// The server and database.
    let client: ClickHouseClient
    /// How long the row counts stand for the version when the server itself wrote nothing.
    let versionMaxAgeMs: Int64

    /// The tables whose row counts make the version: what the reports and `/healthz` read.
    static let countedTables = ["reading_events", "feedback_events", "exposure_events", "observability_events", "rejected_lines"]

    /// A backend over `client`'s database.
    init(client: ClickHouseClient, versionMaxAgeMs: Int64 = 1000) {
        self.client = client
        self.versionMaxAgeMs = versionMaxAgeMs
    }

    func makeReports() -> any ReportBackend {
        ClickHouseReports(client: client)
    }

    /// Takes the database's writer lock for as long as the server runs (`ClickHouseWriterLock`),
    /// creates the single-server schema when it is missing, as `report ingest` does, and names
    /// on standard error the shards whose repair still waits.
    func makeIngestor() throws -> any EventIngesting {
        _ = try ClickHouseWriterLock.acquire(using: client, command: "report serve")
        for shard in try ClickHouseSchema.create(using: client) { Terminal.writeError("\(shard)\n") }
        return ClickHouseIngestor(client: client)
    }

    /// The row count of every table the answers read, through the tables the reports read (a
    /// Distributed table counts every shard). ClickHouse stores a new part on each insert and
    /// duplicates are settled before it, so new events or rejected lines always add rows.
    func makeVersioning() -> any StoreVersioning {
        let client = client
        let sql = "SELECT " + Self.countedTables.map { "(SELECT count() FROM \($0))" }.joined(separator: ", ")
        return FingerprintVersion(maxAgeMs: versionMaxAgeMs) {
            let result = try client.query(sql)
            guard let row = result.rows.first else { throw ClickHouseError.unexpectedAnswer("no row of counts") }
            return row.map { value in if case .int(let n) = value { String(n) } else { "?" } }.joined(separator: ".")
        }
    }

    /// ClickHouse's message, without the server's address.
    func statementError(_ error: any Error) -> String? {
        guard case ClickHouseError.server(_, _, let message) = error else { return nil }
        return message
    }

    /// The active parts of the database's tables on this server (a cluster's other shards are
    /// not counted).
    func storeBytes() throws -> Int64? {
        let result = try client.query("SELECT sum(bytes_on_disk) FROM system.parts WHERE database = currentDatabase() AND active")
        guard case .int(let bytes)? = result.rows.first?.first else { return nil }
        return bytes
    }
}
