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

    func testATwoShardClusterAnswersLikeOneNodeAndLikeSQLite() throws {
        let single = try TestServer.freshDatabase()
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin"]
        guard path.contains(where: { FileManager.default.isExecutableFile(atPath: $0 + "/clickhouse-server") }) else {
            throw XCTSkip("clickhouse-server is not installed, so no cluster can be started here")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-cluster-\(UUID().uuidString)")
        let script = TestServer.root.appendingPathComponent("scripts/clickhouse.sh").path
        let remote = Self.shards.map { "<shard><replica><host>127.0.0.1</host><port>\($0.tcp)</port></replica></shard>" }.joined()
        var started: [String] = []
        defer {
            for dir in started { _ = try? TestServer.run("/bin/bash", [script, "stop", dir]) }
            try? FileManager.default.removeItem(at: folder)
            TestServer.drop(single)
        }
        var nodes: [ClickHouseClient] = []
        for (index, shard) in Self.shards.enumerated() {
            let dir = folder.appendingPathComponent("shard\(index + 1)")
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("config.d"), withIntermediateDirectories: true)
            try "<yandex><remote_servers><\(Self.cluster)>\(remote)</\(Self.cluster)></remote_servers></yandex>\n"
                .write(to: dir.appendingPathComponent("config.d/cluster.xml"), atomically: true, encoding: .utf8)
            let start = try TestServer.run("/bin/bash", [script, "start", dir.path, String(shard.http), String(shard.tcp)])
            XCTAssertEqual(start.status, 0, start.stderr)
            guard start.status == 0 else { return }
            started.append(dir.path)
            nodes.append(try ClickHouseClient(url: "http://127.0.0.1:\(shard.http)", database: single.database))
        }
        // The schema on every node, as `report clickhouse init --cluster` does.
        for node in nodes {
            let result = try TestServer.report(["clickhouse", "init", "--cluster", Self.cluster, "--backend", "clickhouse",
                                                "--clickhouse-url", node.url.absoluteString, "--clickhouse-database", node.database])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let ingested = try TestServer.report(["ingest", "--format", "json", "--backend", "clickhouse", "--clickhouse-url",
                                              nodes[0].url.absoluteString, "--clickhouse-database", nodes[0].database] + TestServer.sampleFiles)
        XCTAssertEqual(ingested.status, 0, ingested.stderr)
        let marks = "SELECT count() FROM system.tables WHERE database = currentDatabase() AND position(name, '__') > 0"
        XCTAssertEqual(try nodes[0].query(marks).rows, [[.int(0)]], "a finished ingest leaves no mark")
        // A run that stopped after its batch's keys but before dropping its mark: the repair
        // `init --cluster` then makes (the missing keys stored through the Distributed tables)
        // changes no answer.
        try nodes[0].execute("CREATE TABLE ingest__in_flight_stopped (in_flight UInt8) ENGINE = TinyLog")
        let repaired = try TestServer.report(["clickhouse", "init", "--cluster", Self.cluster, "--backend", "clickhouse",
                                              "--clickhouse-url", nodes[0].url.absoluteString, "--clickhouse-database", nodes[0].database])
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
        let ingestor = ClickHouseIngestor(client: single)
        for file in TestServer.sampleFiles { _ = try ingestor.ingest(file: file, onRejection: { _, _ in }) }
        let work = folder.appendingPathComponent("sqlite")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let clusterReports = ClickHouseReports(client: nodes[1])
        try BackendParity.assertSame(ClickHouseReports(client: single), clusterReports)
        let sqlite = try BackendParity.sqlite(TestServer.sampleFiles, in: work)
        try BackendParity.assertSame(sqlite, clusterReports)

        // One shard's feed states and counters remade from its own events (what a stale mark
        // asks for) hold that shard's share only: the answers do not move.
        for table in ["feedback_events_local", "exposure_events_local"] {
            try nodes[1].execute("CREATE TABLE \(table)__rollups_stale (stale UInt8) ENGINE = TinyLog")
        }
        let remade = try TestServer.report(["clickhouse", "init", "--cluster", Self.cluster, "--backend", "clickhouse",
                                            "--clickhouse-url", nodes[1].url.absoluteString, "--clickhouse-database", nodes[1].database])
        XCTAssertEqual(remade.status, 0, remade.stderr)
        XCTAssertEqual(try nodes[1].query(marks).rows, [[.int(0)]], "the remake drops its marks")
        try BackendParity.assertSame(sqlite, ClickHouseReports(client: nodes[0]))
    }
}
