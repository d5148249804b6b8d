import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyClickHouse
import TallyTestSupport
import XCTest

/// `report serve --backend clickhouse` as a process: the same per-event answers and the same
/// report bytes as `report serve` over SQLite given the same requests, `/healthz`, and ETags
/// that follow the store, whoever writes to it.
final class ServeClickHouseTests: XCTestCase {
    static let now = "2026-11-20T12:00:00Z"

    /// One write, sent alike to both servers.
    struct Post {
        var path: String
        var body: Data
        var headers: [String: String] = [:]
    }

    static func reading(_ id: String, delta: Int = 15) -> String {
        #"{"eventId":"\#(id)","userId":"u-serve","materialId":"m-serve","eventType":"heartbeat","clientTimestampMs":1795170000000,"activeSecondsDelta":\#(delta)}"#
    }

    static func sample(_ name: String) throws -> Data {
        try Data(contentsOf: TestServer.root.appendingPathComponent("sample-data").appendingPathComponent(name))
    }

    static func lines(_ name: String) throws -> [String] {
        String(decoding: try sample(name), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }

    /// The value of `key` in the JSON object `line`.
    static func member(_ line: String, _ key: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try XCTUnwrap(object?[key] as? String)
    }

    /// Every write endpoint: the sample data (gzip and not, NDJSON and ClickHouse's insert), with
    /// duplicates within a body and across bodies, rejected records, and a body refused whole.
    static func posts() throws -> [Post] {
        let feedback = try lines("feedback.ndjson")
        let observability = try lines("observability.ndjson")
        let faulty = (feedback + [feedback[0], #"{"id":"bad-1"}"#, "not json"]).joined(separator: "\n")
        let badFeedback = #"{"id":"serve-f2","userId":"u-serve","timestamp":1795170000000,"feedbackType":"meh","context":{"impressionId":"serve-i2","modelInfo":"rec-v11","feedPosition":4}}"#
        let newFeedback = #"{"id":"serve-f1","userId":"u-serve","timestamp":1795170000000,"feedbackType":"dislike","reason":"boring","context":{"impressionId":"serve-i1","modelInfo":"rec-v11","feedPosition":3}}"#
        return [
            Post(path: "/events", body: Data(faulty.utf8)),
            Post(path: "/events", body: try sample("reading.ndjson.gz"), headers: ["Content-Encoding": "gzip"]),
            Post(path: "/?query=INSERT%20INTO%20exposure_events%20FORMAT%20JSONEachRow", body: try sample("exposure.ndjson.gz")),
            Post(path: "/events", body: Data((observability + [observability[1]]).joined(separator: "\n").utf8)),
            Post(path: "/learning/reading-events/batch", body: Data(#"{"events": [\#(reading("serve-r1")), \#(reading("serve-r2")), \#(reading("serve-r1", delta: 30)), \#(reading("serve-r3", delta: -1))]}"#.utf8)),
            Post(path: "/v1/feedback/batch", body: Data("[\(feedback[2]), \(newFeedback), \(badFeedback)]".utf8)),
            Post(path: "/events", body: Data(faulty.utf8)),
            Post(path: "/events", body: Data("not json at all\n".utf8)),
        ]
    }

    /// The GET paths asked of both servers: every report, for everyone and for each user.
    static func readPaths(users: [String], materials: [String]) -> [String] {
        var paths = ["/learning/users", "/healthz", "/sql?q=SELECT%20count(*)%20AS%20n%20FROM%20reading_events"]
        for user in [nil] + users.map(Optional.some) {
            let who = "now=\(now)" + (user.map { "&user=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" } ?? "")
            paths += [
                "/learning/summary?\(who)", "/learning/summary?\(who)&tz=-05:00", "/learning/trend?days=30&\(who)",
                "/activity/heatmap?days=365&\(who)", "/activity/heatmap?days=60&\(who)&tz=%2B08:00", "/learning/continue?\(who)",
                "/feed/dislike-rate?\(who)", "/feed/dislike-rate?by=model&topReasons=3&\(who)",
                "/feed/dislike-rate?by=position&positionBuckets=0-2,3-5,7-&topReasons=3&\(who)",
            ]
            paths += (materials + ["never-read"]).map { "/materials/\($0)/reading-progress?\(who)" }
            paths += ["day", "page", "item", "model", "position"].map { "/feed/exposures?by=\($0)&\(who)" }
            paths += ["app_version", "appVersion", "view_name"].map {
                "/observability/latency?event=view_loaded&field=load_duration_ms&by=\($0)&\(who)"
            }
        }
        return paths
    }

    func testEveryAnswerIsTheSQLiteServersAndTheETagFollowsEveryWriter() async throws {
        let url = try TestServer.url()
        let client = try TestServer.freshDatabase(url: url)
        defer { TestServer.drop(client) }
        let folder = try temporaryFolder("tally-serve-ch")
        let clickHouse = try ServeProcess(["--backend", "clickhouse", "--clickhouse-url", url, "--clickhouse-database", client.database, "--allow-sql"])
        let sqlite = try ServeProcess(["--db", folder.appendingPathComponent("s.sqlite").path, "--allow-sql"])

        // Writes: the same status, body and X-ClickHouse-Summary from both.
        var answers: [[String: Any]] = []
        for post in try Self.posts() {
            let (expected, expectedBody) = try await sqlite.exchange(post.path, method: "POST", body: post.body, headers: post.headers)
            let (actual, actualBody) = try await clickHouse.exchange(post.path, method: "POST", body: post.body, headers: post.headers)
            XCTAssertEqual(actual.statusCode, expected.statusCode, post.path)
            XCTAssertEqual(String(decoding: actualBody, as: UTF8.self), String(decoding: expectedBody, as: UTF8.self), post.path)
            XCTAssertEqual(actual.value(forHTTPHeaderField: "X-ClickHouse-Summary"), expected.value(forHTTPHeaderField: "X-ClickHouse-Summary"))
            answers.append((try? JSONSerialization.jsonObject(with: actualBody) as? [String: Any]) ?? [:])
        }
        let feedback = try Self.lines("feedback.ndjson")
        func codes(_ answer: [String: Any]) -> [String] {
            (answer["rejected"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        XCTAssertEqual(answers[0]["accepted"] as? Int, feedback.count)
        XCTAssertEqual(answers[0]["duplicates"] as? [String], [try Self.member(feedback[0], "id")])
        XCTAssertEqual(codes(answers[0]), ["INVALID_EVENT_TYPE", "INVALID_JSON"])
        XCTAssertEqual(answers[3]["duplicates"] as? [String], [try Self.member(try Self.lines("observability.ndjson")[1], "eventId")])
        XCTAssertEqual(answers[4]["accepted"] as? Int, 2)
        XCTAssertEqual(answers[4]["duplicates"] as? [String], ["serve-r1"])
        XCTAssertEqual(codes(answers[4]), ["INVALID_ACTIVE_SECONDS"])
        XCTAssertEqual(answers[5]["accepted"] as? Int, 1)
        XCTAssertEqual(answers[5]["duplicates"] as? [String], [try Self.member(feedback[2], "id")])
        XCTAssertEqual(codes(answers[5]), ["INVALID_FIELD"])
        XCTAssertEqual(answers[6]["accepted"] as? Int, 0)
        XCTAssertEqual((answers[6]["duplicates"] as? [String])?.count, feedback.count + 1)
        XCTAssertEqual((answers[7]["error"] as? [String: Any])?["code"] as? String, "INVALID_BODY")

        // Reads: every report, /learning/users, /healthz and /sql answer the same bytes.
        let (_, usersBody) = try await sqlite.request("/learning/users")
        let users = ((try JSONSerialization.jsonObject(with: usersBody) as? [String: Any])?["rows"] as? [[String: Any]] ?? [])
            .compactMap { $0["userId"] as? String }
        XCTAssertTrue(users.contains("u-serve"), "\(users)")
        let query = "SELECT DISTINCT material_id AS m FROM reading_events ORDER BY m LIMIT 3"
        let (_, materialsBody) = try await sqlite.request("/sql?q=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        let materials = ((try JSONSerialization.jsonObject(with: materialsBody) as? [String: Any])?["rows"] as? [[String: Any]] ?? [])
            .compactMap { $0["m"] as? String }
        XCTAssertEqual(materials.count, 3)
        for path in Self.readPaths(users: users, materials: materials) {
            let (expected, expectedBody) = try await sqlite.exchange(path)
            let (actual, actualBody) = try await clickHouse.exchange(path)
            XCTAssertEqual(expected.statusCode, 200, path)
            XCTAssertEqual(actual.statusCode, 200, path)
            XCTAssertEqual(String(decoding: actualBody, as: UTF8.self), String(decoding: expectedBody, as: UTF8.self), path)
        }
        let (_, health) = try await clickHouse.request("/healthz")
        // The two rejected lines sent twice are kept once, as SQLite keeps them.
        XCTAssertEqual((try JSONSerialization.jsonObject(with: health) as? [String: Any])?["rejectedLines"] as? Int, 4)

        try await assertETagsFollowTheStore(clickHouse, url: url, database: client.database, folder: folder)
        XCTAssertEqual(clickHouse.terminate(), 0)
        XCTAssertEqual(sqlite.terminate(), 0)
    }

    /// 304 while the store holds the same rows; a new tag at once after the server's own write,
    /// and soon after another process's.
    func assertETagsFollowTheStore(_ server: ServeProcess, url: String, database: String, folder: URL) async throws {
        let summary = "/learning/summary?now=\(Self.now)"
        let (first, firstBody) = try await server.exchange(summary)
        let tag = try XCTUnwrap(first.value(forHTTPHeaderField: "ETag"))
        let (held, heldBody) = try await server.exchange(summary, headers: ["If-None-Match": tag])
        XCTAssertEqual(held.statusCode, 304)
        XCTAssertTrue(heldBody.isEmpty)

        // Only duplicates: the store holds the same rows, and the tag stands.
        let batch = "/learning/reading-events/batch"
        let (_, duplicate) = try await server.request(batch, method: "POST", body: Data(#"{"events": [\#(Self.reading("serve-r1"))]}"#.utf8))
        XCTAssertTrue(String(decoding: duplicate, as: UTF8.self).contains(#""duplicates":["serve-r1"]"#))
        let (unchanged, _) = try await server.exchange(summary, headers: ["If-None-Match": tag])
        XCTAssertEqual(unchanged.statusCode, 304)

        // The server's own write: a new tag and a new answer at once.
        let (_, stored) = try await server.request(batch, method: "POST", body: Data(#"{"events": [\#(Self.reading("serve-r4", delta: 60))]}"#.utf8))
        XCTAssertTrue(String(decoding: stored, as: UTF8.self).hasPrefix(#"{"accepted":1,"#))
        let (changed, changedBody) = try await server.exchange(summary, headers: ["If-None-Match": tag])
        XCTAssertEqual(changed.statusCode, 200)
        XCTAssertNotEqual(changedBody, firstBody)
        let newTag = try XCTUnwrap(changed.value(forHTTPHeaderField: "ETag"))
        XCTAssertNotEqual(newTag, tag)

        // `report ingest` is refused while the server is the database's writer (`ClickHouseWriterLock`).
        let file = folder.appendingPathComponent("more.ndjson")
        try Data(Self.reading("serve-r5", delta: 90).utf8).write(to: file)
        let ingest = try TestServer.report(["ingest", file.path, "--backend", "clickhouse", "--clickhouse-url", url, "--clickhouse-database", database])
        XCTAssertNotEqual(ingest.status, 0)
        XCTAssertTrue(ingest.stderr.contains("Another writer holds ClickHouse database \(database)") && ingest.stderr.contains("report serve (pid "),
                      ingest.stderr)
        // Another process's write: the tag changes once the server reads the row counts again.
        try ClickHouseClient(url: url, database: database).execute("INSERT INTO reading_events SELECT * FROM reading_events LIMIT 1")
        var status = 304
        let deadline = Date().addingTimeInterval(60)
        while status == 304, Date() < deadline {
            try await Task.sleep(nanoseconds: 100_000_000)
            status = try await server.exchange(summary, headers: ["If-None-Match": newTag]).0.statusCode
        }
        XCTAssertEqual(status, 200, "the tag did not change after another process wrote")
    }
}
