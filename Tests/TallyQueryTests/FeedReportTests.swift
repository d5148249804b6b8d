import TallyQuery
import TallySQLite
import XCTest

final class FeedReportTests: XCTestCase {
    private typealias F = StoreFixture

    func testDislikeRateCountsFinalReactionsAndFeedbackWithoutExposure() throws {
        let lines = [
            F.exposure("x1", pageInstance: "p", item: "i1", impression: "imp1", ts: 1),
            F.exposure("x2", pageInstance: "p", item: "i2", impression: "imp2", ts: 2),
            F.exposure("x3", pageInstance: "p", item: "i3", impression: "imp3", ts: 3),
            F.exposure("x4", pageInstance: "q", item: "i1", impression: "imp1", ts: 4),
            // imp1: dislike then taken back (neutral) → no reaction.
            F.feedback("f1", impression: "imp1", type: "dislike", ts: 10, reason: "重复看到"),
            F.feedback("f2", impression: "imp1", type: "neutral", ts: 11),
            // imp2: like then dislike → dislike.
            F.feedback("f3", impression: "imp2", type: "like", ts: 10),
            F.feedback("f4", impression: "imp2", type: "dislike", ts: 12, reason: "重复看到"),
            // imp9: feedback without any exposure.
            F.feedback("f5", impression: "imp9", type: "dislike", ts: 10, reason: "内容不感兴趣"),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        let report = try reports.dislikeRate(DislikeGrouping(), topReasons: 1)
        XCTAssertEqual(report.columns.map(\.name), ["modelInfo", "feedPosition", "exposures", "likes", "dislikes", "dislikeRate",
                                                    "dislikeRateLow", "dislikeRateHigh", "feedbackWithoutExposure", "topReasons"])
        XCTAssertEqual(report.rows.count, 1)
        let row = report.rows[0]
        XCTAssertEqual(Array(row[0..<5]), [.text("v1"), .int(0), .int(4), .int(0), .int(2)])
        XCTAssertEqual(row[5], .double(0.5))
        guard case .double(let low) = row[6], case .double(let high) = row[7] else { return XCTFail("interval") }
        XCTAssertEqual(low, 0.15003570882017148, accuracy: 1e-12)
        XCTAssertEqual(high, 0.8499642911798285, accuracy: 1e-12)
        XCTAssertEqual(row[8], .int(1))
        XCTAssertEqual(row[9], .json(#"[{"reason":"内容不感兴趣","count":1}]"#))
    }

    func testDislikeRateGroupsByBucketsInTheirOrder() throws {
        let lines = (0..<12).map { F.exposure("x\($0)", pageInstance: "p", item: "i\($0)", impression: "imp\($0)", ts: 1, position: $0) }
            + [F.feedback("f", impression: "imp11", type: "dislike", ts: 5, position: 11)]
        let grouping = DislikeGrouping(byModel: false, byPosition: true, buckets: try DislikeGrouping.buckets("0-4,5-9,10-"))
        let report = try SQLiteReports(store: try F(lines).store).dislikeRate(grouping)
        XCTAssertEqual(report.rows.map { Array($0[0..<3]) }, [
            [.text("0-4"), .int(5), .int(0)], [.text("5-9"), .int(5), .int(0)], [.text("10-"), .int(2), .int(0)],
        ])
        XCTAssertEqual(report.rows[2][3], .int(1))
        XCTAssertThrowsError(try DislikeGrouping.buckets("5-9,0-4"))
        XCTAssertThrowsError(try DislikeGrouping(by: "colour"))
    }

    func testExposuresCountOncePerPageInstanceAndItemAtTheEarliestEvent() throws {
        let lines = [
            F.exposure("a", user: "u1", page: "home", pageInstance: "p1", item: "i1", impression: "m", ts: F.ms(days: -1)),
            F.exposure("b", user: "u1", page: "home", pageInstance: "p1", item: "i1", impression: "m", ts: F.ms(days: -2)),
            F.exposure("c", user: "u2", page: "explore", pageInstance: "p2", item: "i1", impression: "n", ts: F.ms(days: -1)),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        let byDay = try reports.exposures(by: .day)
        XCTAssertEqual(byDay.columns.first?.name, "date")
        XCTAssertEqual(byDay.rows, [
            [.text("2026-11-18"), .int(1), .int(1), .int(1), .int(1)],
            [.text("2026-11-19"), .int(1), .int(1), .int(1), .int(0)],
        ])
        XCTAssertEqual(try reports.exposures(by: .page).rows.map(\.first), [.text("explore"), .text("home")])
        XCTAssertThrowsError(try ExposureGrouping(by: "colour"))
    }

    func testLatencyUsesNearestRankAndTopOrdersByCountThenKey() throws {
        var lines = (1...10).map { F.observed("v\($0)", name: "view_loaded", properties: #"{"load_duration_ms":\#($0 * 100),"app_version":"1.0"}"#) }
        lines.append(F.observed("s", name: "view_loaded", properties: #"{"load_duration_ms":"slow","app_version":"1.0"}"#))
        lines += ["b", "a", "b", "c", "a"].enumerated().map { F.observed("e\($0.offset)", name: "api_request_failed", user: $0.element, properties: "{}") }
        let reports = SQLiteReports(store: try F(lines).store)
        let latency = try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "app_version")
        XCTAssertEqual(latency.rows, [[.text("1.0"), .int(10), .int(500), .int(900), .int(1000), .int(1000)]])
        XCTAssertEqual(latency.columns.map(\.role), [.key, .count, .milliseconds, .milliseconds, .milliseconds, .milliseconds])
        let top = try reports.top(event: "api_request_failed", by: "userId", limit: 2)
        XCTAssertEqual(top.rows, [[.text("a"), .int(2)], [.text("b"), .int(2)]])
        // Per user the counts kept at ingest answer; they agree with counting the events.
        let counted = try reports.adHoc(try QueryLibrary.sql("top"), parameters: [
            "event": .text("api_request_failed"), "by": .text("userId"), "limit": .int(10),
        ])
        XCTAssertEqual(try reports.top(event: "api_request_failed", by: "userId", limit: 10).rows, counted.rows)
        XCTAssertEqual(counted.rows.count, 3)
    }

    /// Latency's groups come as SQLite's `ORDER BY key IS NULL, key` puts them: numbers by value
    /// (an integer and an equal real are one group), then texts by their bytes, no value last.
    func testLatencyGroupsComeInSQLitesOrder() throws {
        let keys = [#""b""#, "10", #""B""#, "2.5", "null", #""é""#, #""e\u0301""#, "2", "2.0", #""a""#, "-1"]
        let lines = keys.enumerated().map { i, key in
            F.observed("v\(i)", name: "view_loaded", user: "u\(i % 2)", properties: #"{"load_duration_ms":\#(i * 10),"k":\#(key)}"#)
        }
        let reports = SQLiteReports(store: try F(lines).store)
        let latency = try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "k")
        XCTAssertEqual(latency.rows.map(\.first), [.int(-1), .int(2), .double(2.5), .int(10), .text("B"), .text("a"), .text("b"),
                                                   .text("e\u{301}"), .text("é"), .null])
        XCTAssertEqual(latency.rows[1], [.int(2), .int(2), .int(70), .int(80), .int(80), .int(80)], "2 and 2.0: one group, sorted")
        let one = try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "k", user: "u1")
        XCTAssertEqual(one.rows.map(\.first), [.int(2), .double(2.5), .int(10), .text("a"), .text("é")])
    }

    func testANumberBeyondADoubleIsLeftOutOfLatencyAndCountedByItsTextInTop() throws {
        let lines = [
            F.observed("v1", name: "view_loaded", properties: #"{"load_duration_ms":100,"app_version":"1.0"}"#),
            F.observed("v2", name: "view_loaded", properties: #"{"load_duration_ms":1e999,"app_version":"1.0"}"#),
            F.observed("v3", name: "view_loaded", properties: #"{"load_duration_ms":-1e999,"app_version":1e999}"#),
            F.observed("v4", name: "view_loaded", properties: #"{"app_version":"1.0"}"#),
            F.observed("v5", name: "view_loaded", properties: #"{"load_duration_ms":null}"#),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        let latency = try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "app_version")
        XCTAssertEqual(latency.rows, [[.text("1.0"), .int(1), .int(100), .int(100), .int(100), .int(100)]])
        let top = try reports.top(event: "view_loaded", by: "load_duration_ms", limit: 10)
        XCTAssertEqual(top.rows, [[.null, .int(2)], [.int(100), .int(1)], [.text("-1e999"), .int(1)], [.text("1e999"), .int(1)]])
    }

    func testUserNarrowsFeedAndObservabilityReportsToTheirEvents() throws {
        let lines = [
            F.exposure("x1", user: "u1", pageInstance: "p1", item: "i1", impression: "imp1", ts: 1),
            F.exposure("x2", user: "u1", pageInstance: "p1", item: "i1", impression: "imp1", ts: 2),
            F.exposure("x3", user: "u2", pageInstance: "p2", item: "i1", impression: "imp2", ts: 3),
            F.feedback("f1", user: "u1", impression: "imp1", type: "dislike", ts: 5, reason: "重复看到"),
            F.feedback("f2", user: "u2", impression: "imp2", type: "like", ts: 6),
            F.observed("o1", name: "view_loaded", user: "u1", properties: #"{"load_duration_ms":100,"app_version":"1"}"#),
            F.observed("o2", name: "view_loaded", user: "u2", properties: #"{"load_duration_ms":300,"app_version":"1"}"#),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        XCTAssertEqual(try reports.exposures(by: .item).rows, [[.text("i1"), .int(2), .int(1), .int(2), .int(1)]])
        XCTAssertEqual(try reports.exposures(by: .item, user: "u1").rows, [[.text("i1"), .int(1), .int(1), .int(1), .int(1)]])
        let all = try reports.dislikeRate(DislikeGrouping(), topReasons: 1)
        XCTAssertEqual(Array(all.rows[0][2...4]), [.int(2), .int(1), .int(1)])
        let mine = try reports.dislikeRate(DislikeGrouping(), topReasons: 1, user: "u1")
        XCTAssertEqual(Array(mine.rows[0][2...4]), [.int(1), .int(0), .int(1)])
        XCTAssertEqual(mine.rows[0].last, .json(#"[{"reason":"重复看到","count":1}]"#))
        XCTAssertEqual(try reports.dislikeRate(DislikeGrouping(), user: "nobody").rows, [])
        XCTAssertEqual(try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "app_version", user: "u2").rows,
                       [[.text("1"), .int(1), .int(300), .int(300), .int(300), .int(300)]])
        XCTAssertEqual(try reports.top(event: "view_loaded", by: "userId", limit: 5, user: "u2").rows, [[.text("u2"), .int(1)]])
        XCTAssertEqual(try reports.top(event: "view_loaded", by: "app_version", limit: 5, user: "u1").rows, [[.text("1"), .int(1)]])
    }

    func testAdHocSQLIsReadOnly() throws {
        let reports = SQLiteReports(store: try F([F.reading("a", ts: 1, delta: 3)]).store)
        XCTAssertEqual(try reports.adHoc("SELECT sum(active_seconds) AS s FROM reading_events WHERE user_id = :user",
                                         parameters: ["user": .text("u")]).rows, [[.int(3)]])
        XCTAssertThrowsError(try reports.adHoc("DELETE FROM reading_events")) { error in
            XCTAssertTrue("\(error)".contains("read-only"))
        }
    }
}
