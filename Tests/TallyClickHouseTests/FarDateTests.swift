import Foundation
import TallyClickHouse
import TallyQuery
import XCTest

/// Local dates are text on ClickHouse: events the validator accepts with local dates before
/// 1970 or after 2105 (beyond ClickHouse's `Date`) keep their own dates, and every report,
/// retention around them and the date filters included, answers as on SQLite.
final class FarDateTests: XCTestCase {
    /// 12:00 UTC on each day (milliseconds).
    private static let days: [String: Int64] = [
        "1955-06-01": -460_296_000_000, "1960-02-28": -310_564_800_000, "1960-02-29": -310_478_400_000,
        "1960-03-06": -309_960_000_000, "2150-06-01": 5_693_371_200_000, "2200-12-31": 7_289_611_200_000,
        "2201-01-01": 7_289_697_600_000, "2026-11-19": 1_795_089_600_000,
    ]

    private static var lines: [String] {
        var lines: [String] = []
        for (n, ts) in days.sorted(by: { $0.key < $1.key }).map(\.value).enumerated() {
            for user in ["u1", "u2"] where user == "u1" || n % 2 == 0 {
                lines += [
                    #"{"eventId":"r\#(n)\#(user)","userId":"\#(user)","materialId":"m\#(n % 3)","eventType":"heartbeat","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(10 + n)}"#,
                    #"{"eventId":"x\#(n)\#(user)","eventType":"exposure","userId":"\#(user)","pageId":"home","pageInstanceId":"p\#(n)","itemId":"i\#(n % 2)","impressionId":"imp\#(n)\#(user)","modelInfo":"v\#(n % 2)","feedPosition":\#(n % 4),"clientTimestampMs":\#(ts)}"#,
                    #"{"id":"f\#(n)\#(user)","userId":"\#(user)","timestamp":\#(ts + 1000),"feedbackType":"\#(n % 3 == 0 ? "like" : "dislike")","reason":"r\#(n % 2)","context":{"impressionId":"imp\#(n)\#(user)","modelInfo":"v\#(n % 2)","feedPosition":\#(n % 4)}}"#,
                    #"{"eventId":"o\#(n)\#(user)","timestamp":\#(ts),"eventName":"view_loaded","sessionId":"s","userId":"\#(user)","properties":{"load_duration_ms":\#(100 + n),"view_name":"v\#(n % 2)"}}"#,
                ]
            }
        }
        // An API failure so that `top` has rows, and the day (+0900) of a late evening in 2105 (UTC) in 2106.
        lines.append(#"{"eventId":"a1","timestamp":1795089600000,"eventName":"api_request_failed","sessionId":"s","userId":"u1","properties":{"status_code":500}}"#)
        lines.append(#"{"eventId":"late","userId":"u1","materialId":"m0","eventType":"heartbeat","clientTimestampMs":4291747199000,"clientTimezoneOffsetMinutes":540,"activeSecondsDelta":5}"#)
        return lines
    }

    func testFarDatesGiveTheSQLiteAnswers() throws {
        let folder = try temporaryFolder("tally-far")
        let file = folder.appendingPathComponent("far.ndjson").path
        try (Self.lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let sqlite = try BackendParity.sqlite([file], in: folder)
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let counts = try ClickHouseIngestor(client: client, batchSize: 7).ingest(file: file, onRejection: { _, _ in })
        XCTAssertEqual(counts.rejected, 0)
        let clickHouse = ClickHouseReports(client: client)

        XCTAssertEqual(try client.query("SELECT count() FROM reading_events WHERE local_date = '2106-01-01'").rows, [[.int(1)]])
        XCTAssertEqual(try client.query("SELECT min(local_date), max(local_date) FROM reading_events").rows,
                       [[.text("1955-06-01"), .text("2201-01-01")]])
        try BackendParity.assertSame(sqlite, clickHouse)
        for (now, first) in [(Int64(-309_614_400_000), "1960-02-01"), (7_290_043_200_000, "2200-12-01")] {
            for user in [nil, "u1"] {
                let context = ReportContext(user: user, nowMs: now)
                let arguments = ReportCatalog.retention.defaultArguments
                XCTAssertEqual(try ReportCatalog.report("retention", on: clickHouse, context: context, arguments: arguments),
                               try ReportCatalog.report("retention", on: sqlite, context: context, arguments: arguments), "retention at \(now)")
                XCTAssertEqual(try clickHouse.trend(context, days: 30), try sqlite.trend(context, days: 30))
                let filter = try FeedFilter.parse(from: first, to: nil, platform: nil, appVersion: nil)
                for by in ExposureGrouping.allCases {
                    XCTAssertEqual(try clickHouse.exposures(by: by, user: user, filter: filter), try sqlite.exposures(by: by, user: user, filter: filter))
                }
                XCTAssertEqual(try clickHouse.dislikeRate(DislikeGrouping(), topReasons: 3, user: user, filter: filter),
                               try sqlite.dislikeRate(DislikeGrouping(), topReasons: 3, user: user, filter: filter))
            }
        }
        let days = try clickHouse.exposures(by: .day, user: nil, filter: FeedFilter()).rows.compactMap { row -> String? in if case .text(let day)? = row.first { day } else { nil } }
        XCTAssertEqual(days.first, "1955-06-01")
        XCTAssertEqual(days.last, "2201-01-01")
    }
}
