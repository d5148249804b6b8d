import Foundation
import TallyClickHouse
import TallyQuery
import XCTest

/// Two clickhouse-server processes on loopback as a two-shard cluster: local tables on each,
/// Distributed tables sharded by user, ingest through them, and the same numbers as one node
/// and as SQLite.
final class ClusterTests: XCTestCase {
    static let cluster = "tally_two_shards"
    static let shards = [(http: 8124, tcp: 9001), (http: 8125, tcp: 9002)]

    /// Starts the two servers as a two-shard cluster in a new folder (both stopped, then the
    /// folder removed, when the test ends); returns a client of database `database` on each,
    /// shard 1 first. Skips the test where no clickhouse-server is installed.
    private func startCluster(database: String) throws -> [ClickHouseClient] {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin"]
        guard path.contains(where: { FileManager.default.isExecutableFile(atPath: $0 + "/clickhouse-server") }) else {
            throw XCTSkip("clickhouse-server is not installed, so no cluster can be started here")
        }
        let folder = try temporaryFolder("tally-cluster")
        let script = TestServer.root.appendingPathComponent("scripts/clickhouse.sh").path
        let remote = Self.shards.map { "<shard><replica><host>127.0.0.1</host><port>\($0.tcp)</port></replica></shard>" }.joined()
        var nodes: [ClickHouseClient] = []
        for (index, shard) in Self.shards.enumerated() {
            let dir = folder.appendingPathComponent("shard\(index + 1)")
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("config.d"), withIntermediateDirectories: true)
            try "<yandex><remote_servers><\(Self.cluster)>\(remote)</\(Self.cluster)></remote_servers></yandex>\n"
                .write(to: dir.appendingPathComponent("config.d/cluster.xml"), atomically: true, encoding: .utf8)
            addTeardownBlock { _ = try? TestServer.run("/bin/bash", [script, "stop", dir.path]) }
            let start = try TestServer.run("/bin/bash", [script, "start", dir.path, String(shard.http), String(shard.tcp)])
            guard start.status == 0 else {
                throw ClickHouseError.unexpectedAnswer("the cluster's server \(index + 1) did not start: \(start.stderr)")
            }
            nodes.append(try ClickHouseClient(url: "http://127.0.0.1:\(shard.http)", database: database))
        }
        return nodes
    }

    /// Runs `report clickhouse init --cluster` against `node`.
    private func initCluster(_ node: ClickHouseClient) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestServer.report(["clickhouse", "init", "--cluster", Self.cluster, "--backend", "clickhouse",
                               "--clickhouse-url", node.url.absoluteString, "--clickhouse-database", node.database])
    }

    /// Runs `report ingest` of the sample files through `node`.
    private func ingest(_ node: ClickHouseClient) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestServer.report(["ingest", "--format", "json", "--backend", "clickhouse", "--clickhouse-url",
                               node.url.absoluteString, "--clickhouse-database", node.database] + TestServer.sampleFiles)
    }

    func testATwoShardClusterAnswersLikeOneNodeAndLikeSQLite() throws {
        let single = try TestServer.freshDatabase()
        defer { TestServer.drop(single) }
        let nodes = try startCluster(database: single.database)
        // The schema on every node, as `report clickhouse init --cluster` does.
        for node in nodes {
            let result = try initCluster(node)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let ingested = try ingest(nodes[0])
        XCTAssertEqual(ingested.status, 0, ingested.stderr)
        let marks = "SELECT count() FROM system.tables WHERE database = currentDatabase() AND position(name, '__') > 0"
        XCTAssertEqual(try nodes[0].query(marks).rows, [[.int(0)]], "a finished ingest leaves no mark")
        // A run that stopped after its batch's inserts but before dropping its mark: the repair
        // `init --cluster` then makes (this shard's rollups remade from its events, the other's
        // requested) changes no answer.
        try nodes[0].execute("CREATE TABLE ingest__in_flight_stopped (in_flight UInt8) ENGINE = TinyLog")
        let repaired = try initCluster(nodes[0])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertEqual(try nodes[0].query(marks).rows, [[.int(0)]], "the repair drops every mark")
        for node in nodes {
            let local = try node.query("SELECT count() AS n FROM reading_events_local").rows
            XCTAssertNotEqual(local, [[.int(0)]], "every shard holds some users' events")
        }
        // The shard key keeps each user's events, of every family, on one shard.
        for table in ["reading_events", "feedback_events", "exposure_events", "observability_events"] {
            let users = try nodes.map { node in
                Set(try node.query("SELECT DISTINCT user_id FROM \(table)_local").rows.map { "\($0[0])" })
            }
            XCTAssertFalse(users[0].isEmpty && users[1].isEmpty, "\(table) holds events")
            XCTAssertEqual(users[0].intersection(users[1]), [], "users of \(table) on both shards")
        }
        try ClickHouseSchema.create(using: single)
        try TestServer.ingestSample(into: single)
        let clusterReports = ClickHouseReports(client: nodes[1])
        try BackendParity.assertSame(ClickHouseReports(client: single), clusterReports)
        let sqlite = try sqliteReportsOfTheSample()
        try BackendParity.assertSame(sqlite, clusterReports)

        // One shard's feed states and counters remade from its own events (what a stale mark
        // asks for) hold that shard's share only: the answers do not move.
        for table in ["feedback_events_local", "exposure_events_local"] {
            try nodes[1].execute("CREATE TABLE \(table)__rollups_stale (stale UInt8) ENGINE = TinyLog")
        }
        let remade = try initCluster(nodes[1])
        XCTAssertEqual(remade.status, 0, remade.stderr)
        XCTAssertEqual(try nodes[1].query(marks).rows, [[.int(0)]], "the remake drops its marks")
        try BackendParity.assertSame(sqlite, ClickHouseReports(client: nodes[0]))
    }

    /// The feed states and their counters, on each server of the cluster.
    private static let stateTables = ["impression_exposures", "impression_reactions", "dislike_groups", "dislike_reason_counts", "rollup_counters",
                                      "dislike_user_groups", "dislike_user_reason_counts", "exposure_pairs", "exposure_groups",
                                      "exposure_members", "exposure_user_groups", "exposure_user_members", "exposure_counters"]

    /// Rows of each local event table, server by server.
    private func localCounts(_ nodes: [ClickHouseClient]) throws -> [[[ReportValue]]] {
        try nodes.map { node in
            try node.query("""
                SELECT (SELECT count() FROM reading_events_local), (SELECT count() FROM feedback_events_local),
                       (SELECT count() FROM exposure_events_local), (SELECT count() FROM observability_events_local)
                """).rows
        }
    }

    /// Ingests the sample files through `nodes[0]` with the exposure counts' changes refused
    /// before their views, so the first batch (the whole exposure file, whose events are grouped
    /// by user: a smaller batch would hold one user's) stores its events on both shards (and,
    /// unless `statesLost`, its feed states) but not what they change in the counters, and stops;
    /// the ingestor is dropped, as a killed process's memory is. With `statesLost` every shard's
    /// state tables and counters are emptied: what a kill before the states' views leaves.
    private func killMidBatch(_ nodes: [ClickHouseClient], statesLost: Bool) throws {
        for node in nodes { try TestServer.refuseInserts(into: "exposure_changes_local", beforeItsViews: true, using: node) }
        XCTAssertThrowsError(try {
            let ingestor = ClickHouseIngestor(client: nodes[0], batchSize: 20_000)
            for file in TestServer.sampleFiles { _ = try ingestor.ingest(file: file, onRejection: { _, _ in }) }
        }())
        for node in nodes { try TestServer.acceptInserts(into: "exposure_changes_local", using: node) }
        if statesLost {
            for node in nodes {
                for table in Self.stateTables { try node.execute("TRUNCATE TABLE \(table)_local") }
            }
        }
        for node in nodes {
            XCTAssertEqual(try node.query("SELECT count() > 0 FROM exposure_events_local").rows, [[.int(1)]], "each shard holds some of the batch")
        }
        let marks = "SELECT count() FROM system.tables WHERE database = currentDatabase() AND position(name, 'ingest__in_flight_') = 1"
        XCTAssertEqual(try nodes[0].query(marks).rows, [[.int(1)]], "the batch is still marked in flight")
    }

    /// A run killed mid-batch on the cluster: `init --cluster` against the server it addressed
    /// remakes that shard's rollups and names the other shard; the
    /// re-run counts the killed batch's events as duplicates; `init --cluster` against the other
    /// server remakes its rollups. Then every report equals SQLite's and a clean cluster ingest's,
    /// and every shard's event tables count what the clean ingest's do.
    func testAClusterRunKilledMidBatchConvergesOnceEveryShardIsRepaired() throws {
        _ = try TestServer.url()
        let clean = "tally_test_" + UUID().uuidString.prefix(8).lowercased()
        let nodes = try startCluster(database: clean)
        for node in nodes { XCTAssertEqual(try initCluster(node).status, 0) }
        let cleanIngest = try ingest(nodes[0])
        XCTAssertEqual(cleanIngest.status, 0, cleanIngest.stderr)
        XCTAssertFalse(cleanIngest.stderr.contains("rollups to remake"), cleanIngest.stderr)
        let sqlite = try sqliteReportsOfTheSample()

        for statesLost in [false, true] {
            let database = "tally_test_" + UUID().uuidString.prefix(8).lowercased()
            let killed = try nodes.map { try ClickHouseClient(url: $0.url.absoluteString, database: database) }
            for node in killed { XCTAssertEqual(try initCluster(node).status, 0) }
            try killMidBatch(killed, statesLost: statesLost)

            let first = try initCluster(killed[0])
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertTrue(first.stderr.contains("Shard 2 of cluster \(Self.cluster) (127.0.0.1, native port \(Self.shards[1].tcp))"),
                          "the server still to repair is named: \(first.stderr)")
            XCTAssertFalse(first.stderr.contains("Shard 1 "), "the addressed server repaired itself: \(first.stderr)")
            XCTAssertEqual(try killed[0].query("SELECT count() FROM rollup_repairs_local").rows, [[.int(0)]])
            XCTAssertNotEqual(try killed[1].query("SELECT count() FROM rollup_repairs_local").rows, [[.int(0)]],
                              "the other shard holds its request")

            let rerun = try ingest(killed[0])
            XCTAssertEqual(rerun.status, 0, rerun.stderr)
            XCTAssertTrue(rerun.stderr.contains("Shard 2 of cluster"), "every command against the cluster names it: \(rerun.stderr)")

            let second = try initCluster(killed[1])
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertFalse(second.stderr.contains("rollups to remake"), second.stderr)
            for node in killed {
                XCTAssertEqual(try node.query("SELECT count() FROM rollup_repairs_local").rows, [[.int(0)]], "statesLost \(statesLost)")
                XCTAssertEqual(try node.query("""
                    SELECT count() FROM system.tables WHERE database = currentDatabase() AND position(name, '__') > 0
                    """).rows, [[.int(0)]], "no mark is left (statesLost \(statesLost))")
            }
            XCTAssertEqual(try localCounts(killed), try localCounts(nodes), "events as a clean ingest stores them (statesLost \(statesLost))")
            try BackendParity.assertSame(sqlite, ClickHouseReports(client: killed[0]))
            try BackendParity.assertSame(ClickHouseReports(client: nodes[1]), ClickHouseReports(client: killed[1]))
        }
    }
}
