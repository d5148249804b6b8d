import Foundation
import TallyClickHouse
import TallyEvents
import TallyIngest
import TallyQuery
import TallySQLite
import XCTest

/// The ClickHouse backend against a running server (`TALLY_CLICKHOUSE_URL`): the same numbers
/// as SQLite on the same data, idempotent ingest, safe literals, the acceptance suite.
final class ClickHouseBackendTests: XCTestCase {
    func testEveryReportMatchesTheSQLiteBackendOnTheSampleData() throws {
        let client = try sampleDatabase(batchSize: 5_000).client
        try BackendParity.assertSame(try sqliteReportsOfTheSample(), ClickHouseReports(client: client))
    }

    func testDuplicatesAreCountedAndSkippedWithinABatchAndAcrossRuns() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let first = #"{"eventId":"e1","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15}"#
        let changed = #"{"eventId":"e1","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":30}"#
        let bad = #"{"eventId":"e2","materialId":"m","eventType":"heartbeat","clientTimestampMs":"soon"}"#
        let body = Array([first, changed, bad, first].joined(separator: "\n").utf8)
        var rejected: [(RecordOrigin, EventRejection)] = []
        let counts = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: body, name: "body.ndjson"),
                                                                    onRejection: { rejected.append(($0, $1)) })
        XCTAssertEqual(counts, IngestCounts(accepted: 1, duplicates: 2, rejected: 1))
        XCTAssertEqual(rejected.map { "\($0.0.label) \($0.1.code.rawValue)" }, ["body.ndjson:3 INVALID_TIMESTAMP"])
        let again = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: body, name: "body.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(again, IngestCounts(accepted: 0, duplicates: 3, rejected: 1))
        let reports = ClickHouseReports(client: client)
        // The first stored wins; the rejected line is listed once however often it was met.
        XCTAssertEqual(try reports.summary(ReportContext(nowMs: BackendParity.now)).totalActiveSeconds, 15)
        XCTAssertEqual(try reports.rejected(file: nil).rows.count, 1)
        XCTAssertEqual(try reports.rejected(file: "body.ndjson").rows.first?[3], .text("INVALID_TIMESTAMP"))
    }

    func testContinueLearningTiesGoToTheSmallerMaterialId() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        // Same timestamp and sequence: the smaller materialId wins, whatever the keys.
        let body = Array("""
            {"eventId":"z-key","materialId":"alpha","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":5}
            {"eventId":"a-key","materialId":"zeta","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":5}
            """.utf8)
        _ = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: body, name: "ties.ndjson"), onRejection: { _, _ in })
        let answer = try ClickHouseReports(client: client).continueLearning(ReportContext(nowMs: BackendParity.now))
        XCTAssertEqual(answer?.materialId, "alpha")
    }

    func testAFilteredPairCountsAtItsEarliestEventAsOnSQLite() throws {
        // Earliest by timestamp, then by the id's bytes: a tie where one id is a prefix of the
        // other, a non-ASCII id, a timestamp before 1970 against one after, -1 ms against 0, and
        // timestamps either side of 2^32 ms. Each pair's events name other models and positions.
        let events: [(id: String, user: String, page: String, item: String, ts: Int64, model: String)] = [
            ("e0", "u1", "p1", "i1", 1_795_089_600_000, "a"), ("e", "u2", "p1", "i1", 1_795_089_600_000, "b"),
            ("é", "u1", "p1", "i1", 1_795_089_600_000, "c"), ("f", "u1", "p1", "i1", 1_795_089_600_001, "d"),
            ("a", "u1", "p2", "i1", 1_795_089_600_000, "new"), ("z", "u2", "p2", "i1", -460_296_000_000, "old"),
            ("m", "u1", "p3", "i2", 0, "zero"), ("n", "u2", "p3", "i2", -1, "minus"),
            ("q", "u1", "p4", "i2", 4_294_967_296, "above"), ("r", "u1", "p4", "i2", 4_294_967_295, "below"),
        ]
        let lines = events.enumerated().map { n, event in
            #"{"eventId":"\#(event.id)","eventType":"exposure","userId":"\#(event.user)","pageId":"\#(event.model)","# +
                #""pageInstanceId":"\#(event.page)","itemId":"\#(event.item)","impressionId":"\#(event.page)\#(event.item)","# +
                #""modelInfo":"\#(event.model)","feedPosition":\#(n),"clientTimestampMs":\#(event.ts)}"#
        }
        let folder = try temporaryFolder("tally-earliest")
        let file = folder.appendingPathComponent("earliest.ndjson").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let sqlite = try BackendParity.sqlite([file], in: folder)
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try ClickHouseIngestor(client: client, batchSize: 3).ingest(file: file, onRejection: { _, _ in }).accepted, 10)
        let clickHouse = ClickHouseReports(client: client)
        let filter = try FeedFilter.parse(from: "1900-01-01", to: nil, platform: nil, appVersion: nil)
        for user in [nil, "u1", "u2"] {
            for by in ExposureGrouping.allCases {
                XCTAssertEqual(try clickHouse.exposures(by: by, user: user, filter: filter), try sqlite.exposures(by: by, user: user, filter: filter),
                               "\(by) \(user ?? "all")")
            }
        }
        let models = try clickHouse.exposures(by: .model, user: nil, filter: filter).rows.compactMap { row -> String? in
            if case .text(let model)? = row.first { model } else { nil }
        }
        XCTAssertEqual(models, ["b", "below", "minus", "old"])
    }

    func testLiteralsRoundTripThroughTheServerUnchanged() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try client.execute("CREATE DATABASE \(client.database)", useDatabase: false)
        for text in ["' OR 1=1 --", #"\' OR '1'='1"#, "x'); DROP TABLE reading_events; --", #"\"#, "tab\there\nline\r\0end", "线性代数 🚀", ""] {
            let result = try client.query(try ClickHouseSQL.bind("SELECT {v:String} AS v", ["v": .text(text)]))
            XCTAssertEqual(result.rows, [[.text(text)]])
        }
    }

    func testAdHocSQLIsReadOnly() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let reports = ClickHouseReports(client: client)
        XCTAssertEqual(try reports.adHoc("SELECT count() AS n FROM reading_events WHERE user_id = {u:String}", parameters: ["u": .text("x")]).rows,
                       [[.int(0)]])
        XCTAssertThrowsError(try reports.adHoc("INSERT INTO rejected_lines (file, raw) VALUES ('f', 'r')", parameters: [:])) { error in
            guard case .writeRefused? = error as? QueryError else { return XCTFail("\(error)") }
        }
    }

    func testTheAcceptanceSuitePassesWithTheClickHouseBackend() throws {
        try runSuite(ProcessInfo.processInfo.environment["TALLY_ACCEPTANCE_DIR"]
            ?? TestServer.root.deletingLastPathComponent().appendingPathComponent("shared/acceptance").path)
    }

    func testTheFeedAcceptanceSuitePassesWithTheClickHouseBackend() throws {
        try runSuite(ProcessInfo.processInfo.environment["TALLY_ACCEPTANCE_FEED_DIR"]
            ?? TestServer.root.deletingLastPathComponent().appendingPathComponent("shared/acceptance-feed").path)
    }

    /// Runs the acceptance suite in `suite` with the binary pointed at a fresh ClickHouse database.
    private func runSuite(_ suite: String) throws {
        let url = try TestServer.url()
        guard FileManager.default.fileExists(atPath: suite + "/check.py") else {
            throw XCTSkip("no acceptance suite at \(suite) (set TALLY_ACCEPTANCE_DIR)")
        }
        let client = try TestServer.freshDatabase(url: url)
        defer { TestServer.drop(client) }
        let result = try TestServer.run("/usr/bin/env", [
            "python3", suite + "/check.py", Bundle.main.bundleURL.appendingPathComponent("report").path, "--suite", suite,
            "--extra-args", "--backend clickhouse --clickhouse-url \(url) --clickhouse-database \(client.database)",
        ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains(" passed, 0 failed"), result.stdout)
    }
}
