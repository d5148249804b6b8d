import Foundation
import TallyClickHouse
import TallyEvents
import TallyIngest
import TallyQuery
import TallySQLite
import XCTest

/// Identifiers are bytes on ClickHouse too: canonically equivalent ids that differ in bytes are
/// different events, users, materials, impressions, models, pages and items, in one batch or
/// across batches, with the answers of the SQLite backend; a number is one group whatever its
/// JSON text.
final class IdentifierBytesTests: XCTestCase {
    private static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    /// Events whose ids of every kind come in the two spellings of café, and one numeric
    /// property written as 0, -0, 0.0 and 0e5.
    private static var lines: [String] {
        let ts = 1_795_100_000_000
        var lines: [String] = []
        for (n, id) in [nfc, nfd].enumerated() {
            lines += [
                #"{"eventId":"\#(id)","userId":"\#(id)","materialId":"\#(id)","eventType":"heartbeat","clientTimestampMs":\#(ts + n),"activeSecondsDelta":\#(40 * (n + 1))}"#,
                #"{"eventId":"x\#(n)","eventType":"exposure","userId":"u","pageId":"\#(id)","pageInstanceId":"\#(id)","itemId":"i","impressionId":"\#(id)","modelInfo":"\#(id)","feedPosition":1,"clientTimestampMs":\#(ts + n)}"#,
                #"{"eventId":"y\#(n)","eventType":"exposure","userId":"u","pageId":"home","pageInstanceId":"p","itemId":"\#(id)","impressionId":"imp","modelInfo":"v1","feedPosition":2,"clientTimestampMs":\#(ts + n)}"#,
                #"{"id":"f\#(n)","userId":"u","timestamp":\#(ts + 10 + n),"feedbackType":"dislike","reason":"\#(id)","context":{"impressionId":"\#(id)","modelInfo":"\#(id)","feedPosition":1}}"#,
                #"{"eventId":"o\#(n)","timestamp":\#(ts + n),"eventName":"api_request_failed","sessionId":"s","userId":"\#(id)","properties":{}}"#,
            ]
        }
        for (n, text) in ["0", "-0", "0.0", "0e5"].enumerated() {
            lines.append(#"{"eventId":"v\#(n)","timestamp":\#(ts + n),"eventName":"view_loaded","sessionId":"s","userId":"u","properties":{"load_duration_ms":\#(10 * (n + 1)),"app_version":\#(text),"view_name":"\#(n % 2 == 0 ? nfc : nfd)"}}"#)
        }
        return lines
    }

    func testEquivalentIdsStayApartAndAgreeWithSQLiteWhereverTheBatchEnds() throws {
        let folder = try temporaryFolder("tally-bytes")
        let file = folder.appendingPathComponent("bytes.ndjson").path
        try (Self.lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let sqlite = try BackendParity.sqlite([file], in: folder)
        for batchSize in [1, 1000] {
            let client = try TestServer.freshDatabase()
            defer { TestServer.drop(client) }
            try ClickHouseSchema.create(using: client)
            let counts = try ClickHouseIngestor(client: client, batchSize: batchSize).ingest(file: file, onRejection: { _, _ in })
            XCTAssertEqual(counts, IngestCounts(accepted: Self.lines.count, duplicates: 0, rejected: 0), "batches of \(batchSize)")
            let reports = ClickHouseReports(client: client)
            let context = ReportContext(nowMs: BackendParity.now)
            XCTAssertEqual(try reports.summary(context).materialsStarted, 2)
            XCTAssertEqual(try reports.summary(ReportContext(user: Self.nfd, nowMs: BackendParity.now)).totalActiveSeconds, 80)
            XCTAssertEqual(try reports.progress(context, materialId: Self.nfd).totalActiveSeconds, 80)
            XCTAssertEqual(try reports.exposures(by: .page, user: nil).rows.count, 3)
            XCTAssertEqual(try reports.dislikeRate(DislikeGrouping(byModel: true, byPosition: false), topReasons: 3, user: nil).rows.count, 3)
            XCTAssertEqual(try reports.top(event: "api_request_failed", by: "userId", limit: 10, user: nil).rows.count, 2)
            XCTAssertEqual(try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "app_version", user: nil).rows,
                           [[.int(0), .int(4), .int(20), .int(40), .int(40), .int(40)]])
            XCTAssertEqual(try reports.top(event: "view_loaded", by: "app_version", limit: 10, user: nil).rows, [[.int(0), .int(4)]])
            XCTAssertEqual(try reports.top(event: "view_loaded", by: "view_name", limit: 10, user: nil).rows.count, 2)
            try BackendParity.assertSame(sqlite, reports)
        }
    }
}
