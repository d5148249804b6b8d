import Foundation
import TallyClickHouse
import TallySQLite
import XCTest

/// The ClickHouse server the tests run against (`TALLY_CLICKHOUSE_URL`), fresh databases on
/// it, the sample data, and the built `report` binary.
enum TestServer {
    /// The server's URL; the test is skipped, with the reason, when none is configured.
    static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TALLY_CLICKHOUSE_URL"], !url.isEmpty else {
            throw XCTSkip("TALLY_CLICKHOUSE_URL is not set: start a server (scripts/clickhouse.sh start DIR) and export its URL to run the ClickHouse tests")
        }
        return url
    }

    /// A client of a new, empty database with the schema created.
    static func freshDatabase(url: String? = nil) throws -> ClickHouseClient {
        let client = try ClickHouseClient(url: try url ?? self.url(), database: "tally_test_" + UUID().uuidString.prefix(8).lowercased())
        try client.execute("DROP DATABASE IF EXISTS \(client.database)", useDatabase: false)
        return client
    }

    /// Drops the client's database.
    static func drop(_ client: ClickHouseClient) {
        try? client.execute("DROP DATABASE IF EXISTS \(client.database)", useDatabase: false)
    }

    /// Has every insert into `table` (of `client`'s database) fail once the table has stored its
    /// rows: a materialized view on the table throws. Views run after their table; 18.16 runs them
    /// in the order of their names and stops at the first that throws, so the refusing view is
    /// named to run after the table's other views (as an insert whose answer was lost) or, with
    /// `beforeItsViews`, before them (as an insert stopped between its table and its views).
    /// `acceptInserts(into:using:)` undoes it.
    static func refuseInserts(into table: String, beforeItsViews: Bool = false, using client: ClickHouseClient) throws {
        try client.execute("""
            CREATE MATERIALIZED VIEW \(beforeItsViews ? "a_" : "zz_")refused_\(table) ENGINE = Null
            AS SELECT throwIf(length(user_id) >= 0) AS refused FROM \(table)
            """)
    }

    /// Undoes `refuseInserts(into:beforeItsViews:using:)`.
    static func acceptInserts(into table: String, using client: ClickHouseClient) throws {
        for prefix in ["a_", "zz_"] { try client.execute("DROP TABLE IF EXISTS \(prefix)refused_\(table)") }
    }

    /// The package's root folder.
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The sample data files, every family (`sample-data/README.md`).
    static var sampleFiles: [String] {
        let folder = root.appendingPathComponent("sample-data")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.contains(".ndjson") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// Ingests every sample file into `client`'s database, `batchSize` events a batch (the
    /// ingestor's default without it); returns the ingestor.
    @discardableResult
    static func ingestSample(into client: ClickHouseClient, batchSize: Int? = nil) throws -> ClickHouseIngestor {
        let ingestor = batchSize.map { ClickHouseIngestor(client: client, batchSize: $0) } ?? ClickHouseIngestor(client: client)
        for file in sampleFiles { _ = try ingestor.ingest(file: file, onRejection: { _, _ in }) }
        return ingestor
    }

    /// Runs the built `report` binary; returns its status and output.
    static func report(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try run(Bundle.main.bundleURL.appendingPathComponent("report").path, arguments)
    }

    /// Runs `executable arguments…` and waits; output goes through files so no pipe can fill up.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-ch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }
}

extension ClickHouseClient {
    /// The first column of `sql`'s answer, its text values (rows of other values left out).
    func texts(_ sql: String) throws -> [String] {
        try query(sql).rows.compactMap { row -> String? in if case .text(let text)? = row.first { text } else { nil } }
    }
}

extension XCTestCase {
    /// A new folder under the temporary directory, named `prefix-UUID`, removed when the test ends.
    func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// A fresh database with the schema and the sample data stored `batchSize` events a batch,
    /// dropped when the test ends; and the ingestor that stored it.
    func sampleDatabase(batchSize: Int) throws -> (client: ClickHouseClient, ingestor: ClickHouseIngestor) {
        let client = try TestServer.freshDatabase()
        addTeardownBlock { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        return (client, try TestServer.ingestSample(into: client, batchSize: batchSize))
    }

    /// The SQLite backend's reports of the sample data, its store in a temporary folder.
    func sqliteReportsOfTheSample() throws -> SQLiteReports {
        try BackendParity.sqlite(TestServer.sampleFiles, in: try temporaryFolder("tally-sample"))
    }
}
