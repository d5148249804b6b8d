import Foundation
import TallyClickHouse
import TallyQuery
import TallyStore
import XCTest

/// The dislike-rate counters kept at ingest (`impression_states` and the rollups it feeds): a
/// later batch that brings a newer reaction moves the impression to the reaction's group, one
/// that brings an older reaction changes nothing, and the reports equal SQLite's either way.
final class FeedRollupTests: XCTestCase {
    static func exposure(_ id: String, impression: String, model: String, position: Int, ms: Int64 = 1_795_100_000_000,
                         page: String? = nil, item: String? = nil, user: String = "u") -> String {
        #"{"eventId":"\#(id)","eventType":"exposure","clientTimestampMs":\#(ms),"userId":"\#(user)","pageId":"home","pageInstanceId":"\#(page ?? "p-" + impression)","itemId":"\#(item ?? "i-" + id)","impressionId":"\#(impression)","modelInfo":"\#(model)","feedPosition":\#(position)}"#
    }

    static func feedback(_ id: String, impression: String, kind: String, reason: String? = nil, model: String, position: Int,
                         second: Int) -> String {
        let reasonMember = reason.map { #""reason":"\#($0)","# } ?? ""
        return #"{"id":"\#(id)","timestamp":"2026-11-20T10:00:0\#(second).000Z","feedbackType":"\#(kind)",\#(reasonMember)"context":{"feedPosition":\#(position),"impressionId":"\#(impression)","modelInfo":"\#(model)"},"userId":"u"}"#
    }

    /// Two batches: the second brings a newer reaction to imp-1 (in another group) and an older
    /// one to imp-2.
    static let batches = [
        [exposure("e1", impression: "imp-1", model: "m-a", position: 1),
         feedback("f1", impression: "imp-1", kind: "dislike", reason: "Boring", model: "m-a", position: 1, second: 2),
         exposure("e2", impression: "imp-2", model: "m-a", position: 2),
         feedback("f2", impression: "imp-2", kind: "like", model: "m-a", position: 2, second: 5)],
        [feedback("f3", impression: "imp-1", kind: "like", model: "m-b", position: 3, second: 3),
         feedback("f4", impression: "imp-2", kind: "dislike", reason: "Old", model: "m-a", position: 2, second: 1)],
    ]

    private static let groupings = [DislikeGrouping(), DislikeGrouping(byModel: true, byPosition: false),
                                    DislikeGrouping(byModel: false, byPosition: true)]

    private func counters(_ client: ClickHouseClient) throws -> [[ReportValue]] {
        try client.query("""
            SELECT model_info, feed_position, sum(exposed_count), sum(feedback_only_count), sum(like_count), sum(dislike_count)
            FROM dislike_groups GROUP BY model_info, feed_position
            HAVING sum(exposed_count) + sum(feedback_only_count) + sum(like_count) + sum(dislike_count) != 0
            ORDER BY model_info, feed_position
            """).rows
    }

    private func sqlite(_ batches: [[String]], in folder: URL) throws -> SQLiteReports {
        let store = try EventStore(path: folder.appendingPathComponent("feed.sqlite").path)
        let ingestor = try Ingestor(store: store)
        for batch in batches { _ = try ingestor.store(group: [try ChunkStoringTests.chunk(batch)]) }
        return SQLiteReports(store: store)
    }

    private func assertSameDislikeRates(_ expected: SQLiteReports, _ actual: ClickHouseReports,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        for grouping in Self.groupings {
            for user in [nil, "u"] {
                XCTAssertEqual(try actual.dislikeRate(grouping, topReasons: 2, user: user),
                               try expected.dislikeRate(grouping, topReasons: 2, user: user), "\(grouping) \(user ?? "all")",
                               file: file, line: line)
            }
        }
    }

    func testALaterBatchMovesAnImpressionToItsNewerReactionsGroupAndIgnoresAnOlderOne() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        for batch in Self.batches { _ = try ingestor.store(group: [try ChunkStoringTests.chunk(batch)]) }

        XCTAssertEqual(try counters(client), [
            [.text("m-a"), .int(1), .int(1), .int(0), .int(0), .int(0)],
            [.text("m-a"), .int(2), .int(1), .int(0), .int(1), .int(0)],
            [.text("m-b"), .int(3), .int(0), .int(1), .int(1), .int(0)],
        ], "imp-1's dislike left (m-a, 1) for a like in (m-b, 3); imp-2 kept its newer like")
        XCTAssertEqual(try client.query("SELECT sum(reason_count) FROM dislike_reason_counts").rows, [[.int(0)]])
        XCTAssertEqual(try client.query("SELECT sum(value) FROM rollup_counters").rows, [[.int(1)]], "imp-1 is in two groups")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try assertSameDislikeRates(try sqlite(Self.batches, in: folder), ClickHouseReports(client: client))
    }

    func testTheCountersOfADatabaseWithoutThemAreMadeFromItsEvents() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        for batch in Self.batches { _ = try ingestor.store(group: [try ChunkStoringTests.chunk(batch)]) }
        let kept = try counters(client)
        // A database made before the counters existed.
        for name in ["dislike_groups", "dislike_reason_counts", "rollup_counters"] {
            try client.execute("DROP TABLE \(name)_mv")
            try client.execute("DROP TABLE \(name)")
        }
        try client.execute("DROP TABLE impression_states")
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try counters(client), kept)
        XCTAssertEqual(try client.query("SELECT sum(value) FROM rollup_counters").rows, [[.int(1)]])

        // The views feed the remade counters: imp-3 is new.
        _ = try ingestor.store(group: [try ChunkStoringTests.chunk([
            Self.feedback("f5", impression: "imp-3", kind: "dislike", reason: "Boring", model: "m-b", position: 3, second: 7),
        ])])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try sqlite(Self.batches + [[Self.feedback("f5", impression: "imp-3", kind: "dislike", reason: "Boring",
                                                                 model: "m-b", position: 3, second: 7)]], in: folder)
        try assertSameDislikeRates(expected, ClickHouseReports(client: client))
    }

    func testAnEarlierExposureInALaterBatchMovesItsPairToItsGroupsAndTheMembersFollow() throws {
        let day = Int64(86_400_000)
        let batches = [
            [Self.exposure("x1", impression: "imp-1", model: "m-a", position: 1, ms: 1_795_100_000_000, page: "pi-1", item: "item-a"),
             Self.exposure("x2", impression: "imp-1", model: "m-a", position: 1, ms: 1_795_100_000_000 + 5_000, page: "pi-1", item: "item-a"),
             Self.exposure("x3", impression: "imp-2", model: "m-a", position: 2, ms: 1_795_100_000_000, page: "pi-2", item: "item-b",
                           user: "v")],
            // pi-1's earliest exposure arrives late: another model, position and day, so item-a and u leave m-a.
            [Self.exposure("x4", impression: "imp-1", model: "m-b", position: 4, ms: 1_795_100_000_000 - day, page: "pi-1", item: "item-a")],
        ]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        for batch in batches { _ = try ingestor.store(group: [try ChunkStoringTests.chunk(batch)]) }

        XCTAssertEqual(try client.query("""
            SELECT group_value, sum(exposure_count), sum(duplicate_count) FROM exposure_groups WHERE dimension = 'model'
            GROUP BY group_value HAVING sum(exposure_count) != 0 OR sum(duplicate_count) != 0 ORDER BY group_value
            """).rows, [[.text("m-a"), .int(1), .int(0)], [.text("m-b"), .int(1), .int(2)]])
        XCTAssertEqual(try client.query("""
            SELECT group_value, uniqExactMerge(items), uniqExactMerge(users) FROM exposure_members WHERE dimension = 'model'
            GROUP BY group_value ORDER BY group_value
            """).rows, [[.text("m-a"), .int(1), .int(1)], [.text("m-b"), .int(1), .int(1)]], "item-a and u left m-a")
        XCTAssertEqual(try client.query("SELECT count() FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0").rows,
                       [[.int(0)]], "the stale mark is gone once the counts are remade")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try sqlite(batches, in: folder), actual = ClickHouseReports(client: client)
        for grouping in ExposureGrouping.allCases {
            for user in [nil, "u", "v"] {
                XCTAssertEqual(try actual.exposures(by: grouping, user: user), try expected.exposures(by: grouping, user: user),
                               "\(grouping) \(user ?? "all")")
            }
        }
    }

    func testAnIngestLeavesTheMemberSetsInOnePart() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client, batchSize: 2_000)
        for file in TestServer.sampleFiles { _ = try ingestor.ingest(file: file, onRejection: { _, _ in }) }
        let parts = "SELECT count() FROM system.parts WHERE database = '\(client.database)' AND table = 'exposure_members' AND active"
        // Six inserts of 2,000 exposures each; OPTIMIZE FINAL leaves one part, or two when a
        // background merge held some of them at that moment.
        let found = try client.query(parts).rows
        XCTAssertTrue([[[ReportValue.int(1)]], [[.int(2)]]].contains(found), "exposures reads one set per group, not one per batch: \(found)")
    }

    func testExposuresStoredAgainAfterASendFailedPartWayCountOnce() throws {
        let lines = [Self.exposure("x1", impression: "imp-1", model: "m-a", position: 1, page: "pi-1", item: "item-a"),
                     Self.exposure("x2", impression: "imp-1", model: "m-a", position: 1, ms: 1_795_100_005_000, page: "pi-1", item: "item-a"),
                     Self.feedback("f1", impression: "imp-1", kind: "dislike", reason: "Boring", model: "m-a", position: 1, second: 2)]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        let body = try ChunkStoringTests.chunk(lines)
        // The events and the feed states are stored, their keys are not; then the body comes again.
        try ChunkStoringTests.failPartWay(ingestor, body, client)
        _ = try ingestor.store(group: [body])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try sqlite([lines], in: folder), actual = ClickHouseReports(client: client)
        for grouping in ExposureGrouping.allCases {
            XCTAssertEqual(try actual.exposures(by: grouping, user: nil), try expected.exposures(by: grouping, user: nil), "\(grouping)")
        }
        try assertSameDislikeRates(expected, actual)
        let marks = "SELECT count() FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0"
        XCTAssertEqual(try client.query(marks).rows, [[.int(0)]])
    }

    func testReadingsAndExposuresStoredAgainTogetherCountOnceEverywhere() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        let body = try ChunkStoringTests.chunk(["a", "b", "c"].map { ChunkStoringTests.reading($0) }
            + [Self.exposure("x1", impression: "imp-1", model: "m-a", position: 1, page: "pi-1", item: "item-a")])
        try ChunkStoringTests.failPartWay(ingestor, body, client)
        _ = try ingestor.store(group: [body])
        // Both event tables are merged before any rollup is remade from them.
        XCTAssertEqual(try client.query("SELECT sum(seconds) FROM reading_daily").rows, [[.int(45)]])
        XCTAssertEqual(try client.query("SELECT sum(exposure_count), sum(duplicate_count) FROM exposure_groups WHERE dimension = 'day'").rows,
                       [[.int(1), .int(0)]])
    }

    func testAStateInsertSentTwiceCountsOnce() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        _ = try ingestor.store(group: [try ChunkStoringTests.chunk(Self.batches[0])])
        let once = try counters(client)
        // A resend stored the batch's state rows and changes a second time; the run stopped after the mark.
        try client.execute("CREATE TABLE impression_states__rollups_stale (stale UInt8) ENGINE = TinyLog")
        try client.execute("INSERT INTO impression_states SELECT * FROM impression_states")
        XCTAssertNotEqual(try counters(client), once)
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try counters(client), once)
        XCTAssertEqual(try client.query("SELECT count() FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0").rows,
                       [[.int(0)]])
    }
}
