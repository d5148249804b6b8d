import Foundation
import TallyTestSupport
import XCTest

final class ServeEndToEndTests: XCTestCase {
    private var files: EventFiles!
    private var db: String!

    override func setUpWithError() throws {
        files = try EventFiles()
        db = files.path("s.sqlite")
        var lines = (0..<60).map { EventFiles.reading($0, user: $0 % 2 == 0 ? "u-1" : "u-2", day: $0 % 12, delta: 5 + $0) }
        lines += (0..<20).map { i in
            #"{"id":"f\#(i)","userId":"u-1","timestamp":1795170000000,"feedbackType":"\#(i % 3 == 0 ? "dislike" : "like")","context":{"impressionId":"i\#(i)","modelInfo":"rec-v\#(i % 2)","feedPosition":\#(i % 4)}}"#
        }
        lines += (0..<20).map { i in
            #"{"eventId":"x\#(i)","eventType":"exposure","clientTimestampMs":1795170000000,"userId":"u-1","pageId":"home","pageInstanceId":"p\#(i / 5)","itemId":"item-\#(i)","impressionId":"i\#(i)","modelInfo":"rec-v\#(i % 2)","feedPosition":\#(i % 4)}"#
        }
        lines += (0..<20).map { i in
            #"{"eventId":"o\#(i)","timestamp":1795170000000,"eventName":"view_loaded","sessionId":"s","userId":"u-1","properties":{"load_duration_ms":\#(100 + i * 7),"app_version":"2.\#(i % 3)"}}"#
        }
        let input = try files.write("all.ndjson", lines.joined(separator: "\n"))
        XCTAssertEqual(try ReportBinary.run(["ingest", input, "--db", db]).status, 0)
    }

    override func tearDown() {
        files = nil
    }

    /// Every GET answers the bytes `report … --format json` prints for the same question.
    func testEveryGetIsByteForByteTheCLIsJSON() async throws {
        let server = try ServeProcess(["--db", db])
        let now = "2026-11-20T12:00:00Z"
        let cases: [(String, [String])] = [
            ("/learning/summary?now=\(now)", ["summary"]),
            ("/learning/summary?user=u-1&now=\(now)", ["summary", "--user", "u-1"]),
            ("/learning/summary?user=u-2&now=\(now)&tz=-05:00", ["summary", "--user", "u-2", "--tz", "-05:00"]),
            ("/learning/trend?days=14&user=u-1&now=\(now)", ["trend", "--days", "14", "--user", "u-1"]),
            ("/activity/heatmap?days=365&now=\(now)", ["heatmap", "--days", "365"]),
            ("/activity/heatmap?days=30&user=u-2&now=\(now)&tz=%2B08:00", ["heatmap", "--days", "30", "--user", "u-2", "--tz", "+08:00"]),
            ("/learning/continue?user=u-1&now=\(now)", ["continue", "--user", "u-1"]),
            ("/materials/m-1/reading-progress?now=\(now)", ["progress", "m-1"]),
            ("/feed/dislike-rate?now=\(now)", ["dislike-rate"]),
            ("/feed/dislike-rate?by=position&positionBuckets=0-1,2-&topReasons=2&now=\(now)",
             ["dislike-rate", "--by", "position", "--position-buckets", "0-1,2-", "--top-reasons", "2"]),
            ("/feed/exposures?by=model&now=\(now)", ["exposures", "--by", "model"]),
            ("/feed/exposures?by=day&user=u-1&now=\(now)", ["exposures", "--by", "day", "--user", "u-1"]),
            ("/observability/latency?event=view_loaded&field=load_duration_ms&by=app_version&now=\(now)",
             ["latency", "--event", "view_loaded", "--field", "load_duration_ms", "--by", "app_version"]),
        ]
        for (path, arguments) in cases {
            let cli = try ReportBinary.run(arguments + ["--format", "json", "--now", now, "--db", db])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            let (status, body) = try await server.request(path)
            XCTAssertEqual(status, 200, path)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), cli.stdout, path)
            let csv = try ReportBinary.run(arguments + ["--format", "csv", "--now", now, "--db", db])
            XCTAssertEqual(csv.status, 0, csv.stderr)
            let (csvStatus, csvBody) = try await server.request(path + "&format=csv")
            XCTAssertEqual(csvStatus, 200, path)
            XCTAssertEqual(String(decoding: csvBody, as: UTF8.self), csv.stdout, "\(path) as CSV")
        }
        XCTAssertEqual(server.terminate(), 0)
    }

    /// SIGTERM while uploads stream in: the server stops accepting, finishes what it accepted and
    /// exits 0, and every event it answered as accepted is in the store.
    func testSIGTERMDuringUploadsLosesNothingAccepted() async throws {
        let server = try ServeProcess(["--db", db])
        let accepted = LockedIDs()
        let uploads = (0..<4).map { client in
            Task {
                for batch in 0..<10_000 {
                    let ids = (0..<50).map { "t-\(client)-\(batch)-\($0)" }
                    let body = "{\"events\": [" + ids.map {
                        #"{"eventId":"\#($0)","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795170000000,"activeSecondsDelta":1}"#
                    }.joined(separator: ",") + "]}"
                    guard let (status, data) = try? await server.request("/learning/reading-events/batch", method: "POST", body: Data(body.utf8)),
                          status == 200,
                          let answer = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                    else { return }
                    XCTAssertEqual(answer["accepted"] as? Int, 50)
                    accepted.add(ids)
                }
            }
        }
        while accepted.count < 2000 {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTAssertEqual(server.terminate(), 0)
        for upload in uploads {
            await upload.value
        }
        let stored = try ReportBinary.run(["sql", "SELECT event_id FROM reading_events WHERE event_id LIKE 't-%'", "--format", "csv", "--db", db])
        XCTAssertEqual(stored.status, 0, stored.stderr)
        let ids = Set(stored.stdout.split(whereSeparator: \.isNewline).dropFirst().map(String.init))
        let missing = accepted.all.subtracting(ids)
        XCTAssertTrue(missing.isEmpty, "\(missing.count) accepted events are missing, such as \(missing.prefix(3))")
        XCTAssertGreaterThanOrEqual(ids.count, accepted.all.count)
    }

    /// `TALLY_TOKEN` and `REPORT_TOKEN` both set the token; a bad parameter is a JSON 400.
    func testTokenFromTheEnvironment() async throws {
        for variable in ["TALLY_TOKEN", "REPORT_TOKEN"] {
            let server = try ServeProcess(["--db", db], environment: [variable: "tkn"])
            let (refused, _) = try await server.request("/learning/summary")
            XCTAssertEqual(refused, 401, variable)
            let (health, _) = try await server.request("/healthz")
            XCTAssertEqual(health, 200)
            let (bad, body) = try await server.request("/learning/trend?days=0", headers: ["Authorization": "Bearer tkn"])
            XCTAssertEqual(bad, 400)
            XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("\"INVALID_PARAMETER\""))
            XCTAssertEqual(server.terminate(), 0)
        }
    }

    /// `--token-file` gives each token its scopes; a mistake in the file stops the server before
    /// it starts, naming the file, line and field but not the token.
    func testScopedTokensFromAFile() async throws {
        let tokens = try files.write("tokens", "# scopes token\nread reader-1\nwrite,metrics writer-1\n")
        let server = try ServeProcess(["--db", db, "--token-file", tokens])
        let (read, _) = try await server.request("/learning/summary", headers: ["Authorization": "Bearer reader-1"])
        let (forbidden, body) = try await server.request("/learning/summary", headers: ["Authorization": "Bearer writer-1"])
        let (metrics, _) = try await server.request("/metrics", headers: ["Authorization": "Bearer writer-1"])
        XCTAssertEqual([read, forbidden, metrics], [200, 403, 200])
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("\"INSUFFICIENT_SCOPE\""))
        XCTAssertEqual(server.terminate(), 0)

        let bad = try files.write("bad-tokens", "read reader-1\nread,admin secret-2\n")
        let refused = try ReportBinary.run(["serve", "--db", db, "--port", "0", "--token-file", bad])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("\(bad), line 2, scopes: unknown scope \"admin\""), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("secret-2"))

        let environment = try ServeProcess(["--db", db], environment: ["TALLY_TOKENS": "read r-env;write w-env"])
        let (fromEnvironment, _) = try await environment.request("/learning/summary", headers: ["Authorization": "Bearer r-env"])
        let (writerReads, _) = try await environment.request("/learning/summary", headers: ["Authorization": "Bearer w-env"])
        XCTAssertEqual([fromEnvironment, writerReads], [200, 403])
        XCTAssertEqual(environment.terminate(), 0)
    }

    /// `--token` given twice is refused before the server starts, rather than keeping the last.
    /// (The host is one that never resolves, so a server that accepted the flags would not start either.)
    func testATokenGivenTwiceIsAnError() throws {
        let result = try ReportBinary.run(["serve", "--db", db, "--port", "0", "--host", "no-such-host.invalid",
                                           "--token", "first", "--token", "second"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--token is given 2 times"), result.stderr)
        XCTAssertFalse(result.stderr.contains("first") || result.stderr.contains("second"), "the tokens are not echoed")
    }
}

/// Event ids collected from several tasks.
final class LockedIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var ids = Set<String>()

    func add(_ new: [String]) {
        lock.lock()
        ids.formUnion(new)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return ids.count
    }

    var all: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return ids
    }
}
