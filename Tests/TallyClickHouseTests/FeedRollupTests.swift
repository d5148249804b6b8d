import Foundation
@testable import TallyClickHouse
import TallyEvents
import TallyQuery
import TallySQLite
import XCTest

/// The dislike-rate counters kept at ingest (`impression_changes` and the rollups it feeds): a
/// later batch that brings a newer reaction moves the impression to the reaction's group, one
/// that brings an older reaction changes nothing, and the reports equal SQLite's either way.
final class FeedRollupTests: XCTestCase {
    static func exposure(_ id: String, impression: String, model: String, position: Int, ms: Int64 = 1_795_100_000_000,
                         page: String? = nil, item: String? = nil, user: String = "u") -> String {
        #"{"eventId":"\#(id)","eventType":"exposure","clientTimestampMs":\#(ms),"userId":"\#(user)","pageId":"home","pageInstanceId":"\#(page ?? "p-" + impression)","itemId":"\#(item ?? "i-" + id)","impressionId":"\#(impression)","modelInfo":"\#(model)","feedPosition":\#(position)}"#
    }

    static func feedback(_ id: String, impression: String, kind: String, reason: String? = nil, model: String, position: Int,
                         second: Int, user: String = "u") -> String {
        let reasonMember = reason.map { #""reason":"\#($0)","# } ?? ""
        return #"{"id":"\#(id)","timestamp":"2026-11-20T10:00:0\#(second).000Z","feedbackType":"\#(kind)",\#(reasonMember)"context":{"feedPosition":\#(position),"impressionId":"\#(impression)","modelInfo":"\#(model)"},"userId":"\#(user)"}"#
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

    /// `batches`, and beside each of u's events the same for user v (impressions of the same ids
    /// and groups, page instances of v's own).
    static let batchesOfTwoUsers = batches.map { batch in
        batch + batch.map { $0.replacingOccurrences(of: #""userId":"u""#, with: #""userId":"v""#)
            .replacingOccurrences(of: #"Id":"e"#, with: #"Id":"ve"#).replacingOccurrences(of: #""id":"f"#, with: #""id":"vf"#)
            .replacingOccurrences(of: #""pageInstanceId":"p-"#, with: #""pageInstanceId":"vp-"#) }
    }

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

    /// The per-user counters (`dislike-rate --user`, `exposures --user`), without the rows that
    /// sum to nothing.
    private func userCounters(_ client: ClickHouseClient) throws -> [[ReportValue]] {
        try client.query("""
            SELECT * FROM (
                SELECT user_id, model_info AS g, toString(feed_position) AS v, sum(exposed_count) AS a, sum(feedback_only_count) AS b,
                       sum(like_count) AS c, sum(dislike_count) AS d
                FROM dislike_user_groups GROUP BY user_id, model_info, feed_position
                HAVING sum(exposed_count) != 0 OR sum(feedback_only_count) != 0 OR sum(like_count) != 0 OR sum(dislike_count) != 0
                UNION ALL
                SELECT user_id, reason, toString(feed_position), sum(reason_count), toInt64(0), toInt64(0), toInt64(0)
                FROM dislike_user_reason_counts GROUP BY user_id, reason, feed_position HAVING sum(reason_count) != 0
                UNION ALL
                SELECT user_id, dimension, group_value, sum(exposure_count), sum(duplicate_count), toInt64(0), toInt64(0)
                FROM exposure_user_groups GROUP BY user_id, dimension, group_value
                HAVING sum(exposure_count) != 0 OR sum(duplicate_count) != 0
                UNION ALL
                SELECT user_id, dimension, group_value, toInt64(uniqExactMerge(items)), toInt64(0), toInt64(0), toInt64(0)
                FROM exposure_user_members GROUP BY user_id, dimension, group_value
            )
            ORDER BY user_id, g, v, a, b, c, d
            """).rows
    }

    /// Creates the schema in `client`'s database and ingests `batches`, one store each.
    private func store(_ batches: [[String]], in client: ClickHouseClient) throws {
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        for batch in batches { _ = try ingestor.store(group: [try GroupIngestTests.chunk(batch)]) }
    }

    /// Compares `exposures` in every grouping for everyone and each of `users`.
    private func assertSameExposures(_ expected: SQLiteReports, _ actual: ClickHouseReports, users: [String], _ note: String = "",
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        for grouping in ExposureGrouping.allCases {
            for user in [nil] + users.map(Optional.some) {
                XCTAssertEqual(try actual.exposures(by: grouping, user: user), try expected.exposures(by: grouping, user: user),
                               "\(note)\(grouping) \(user ?? "all")", file: file, line: line)
            }
        }
    }

    private func sqlite(_ batches: [[String]], in folder: URL) throws -> SQLiteReports {
        let store = try EventStore(path: folder.appendingPathComponent("feed.sqlite").path)
        let ingestor = try Ingestor(store: store)
        for batch in batches { _ = try ingestor.store(group: [try GroupIngestTests.chunk(batch)]) }
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
        for batch in Self.batches { _ = try ingestor.store(group: [try GroupIngestTests.chunk(batch)]) }

        XCTAssertEqual(try counters(client), [
            [.text("m-a"), .int(1), .int(1), .int(0), .int(0), .int(0)],
            [.text("m-a"), .int(2), .int(1), .int(0), .int(1), .int(0)],
            [.text("m-b"), .int(3), .int(0), .int(1), .int(1), .int(0)],
        ], "imp-1's dislike left (m-a, 1) for a like in (m-b, 3); imp-2 kept its newer like")
        XCTAssertEqual(try client.query("SELECT sum(reason_count) FROM dislike_reason_counts").rows, [[.int(0)]])
        XCTAssertEqual(try client.query("SELECT sum(value) FROM rollup_counters").rows, [[.int(1)]], "imp-1 is in two groups")

        let folder = try temporaryFolder("tally-feed")
        try assertSameDislikeRates(try sqlite(Self.batches, in: folder), ClickHouseReports(client: client))
    }

    func testTheCountersOfADatabaseWithoutThemAreMadeFromItsEvents() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        for batch in Self.batches { _ = try ingestor.store(group: [try GroupIngestTests.chunk(batch)]) }
        let kept = try counters(client), keptPerUser = try userCounters(client)
        XCTAssertFalse(keptPerUser.isEmpty)
        // A database made before the counters existed.
        for name in ["dislike_groups", "dislike_reason_counts", "rollup_counters", "dislike_user_groups", "dislike_user_reason_counts",
                     "exposure_user_groups", "exposure_user_members", "exposure_counters"] {
            try client.execute("DROP TABLE IF EXISTS \(name)_mv")
            try client.execute("DROP TABLE IF EXISTS \(name)_changes_mv")
            try client.execute("DROP TABLE \(name)")
        }
        for name in ["impression_exposures", "impression_reactions"] {
            try client.execute("DROP TABLE \(name)_mv")
            try client.execute("DROP TABLE \(name)")
        }
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try counters(client), kept)
        XCTAssertEqual(try userCounters(client), keptPerUser)
        XCTAssertEqual(try client.query("SELECT sum(value) FROM rollup_counters").rows, [[.int(1)]])

        // The views feed the remade counters: imp-3 is new.
        _ = try ingestor.store(group: [try GroupIngestTests.chunk([
            Self.feedback("f5", impression: "imp-3", kind: "dislike", reason: "Boring", model: "m-b", position: 3, second: 7),
        ])])
        let folder = try temporaryFolder("tally-feed")
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
        try store(batches, in: client)

        XCTAssertEqual(try client.query("""
            SELECT group_value, sum(exposure_count), sum(duplicate_count) FROM exposure_groups WHERE dimension = 'model'
            GROUP BY group_value HAVING sum(exposure_count) != 0 OR sum(duplicate_count) != 0 ORDER BY group_value
            """).rows, [[.text("m-a"), .int(1), .int(0)], [.text("m-b"), .int(1), .int(2)]])
        XCTAssertEqual(try client.query("""
            SELECT group_value, uniqExactMerge(items), uniqExactMerge(users) FROM exposure_members WHERE dimension = 'model'
            GROUP BY group_value ORDER BY group_value
            """).rows, [[.text("m-a"), .int(1), .int(1)], [.text("m-b"), .int(1), .int(1)]], "item-a and u left m-a")
        XCTAssertEqual(try client.query("""
            SELECT user_id, group_value, uniqExactMerge(items) FROM exposure_user_members WHERE dimension = 'model'
            GROUP BY user_id, group_value ORDER BY user_id, group_value
            """).rows, [[.text("u"), .text("m-b"), .int(1)], [.text("v"), .text("m-a"), .int(1)]], "u's item-a left m-a")
        XCTAssertEqual(try client.query("SELECT count() FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0").rows,
                       [[.int(0)]], "the stale mark is gone once the counts are remade")

        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite(batches, in: folder), actual = ClickHouseReports(client: client)
        try assertSameExposures(expected, actual, users: ["u", "v"])
    }

    func testAnIngestIntoAStoreRewritesNoStoredPart() throws {
        let (client, ingestor) = try sampleDatabase(batchSize: 2_000)
        // From here on the server merges nothing: a part of the store goes away only if the
        // ingest has a table merged (an `OPTIMIZE`, whose cost grows with the store).
        let db = client.database
        let tables = try client.texts("SELECT name FROM system.tables WHERE database = '\(db)' AND engine LIKE '%MergeTree'")
        XCTAssertTrue(tables.contains("exposure_members"))
        for table in tables { try client.execute("SYSTEM STOP MERGES \(db).\(table)") }
        defer { for table in tables { try? client.execute("SYSTEM START MERGES \(db).\(table)") } }
        let activeParts = "SELECT table, name FROM system.parts WHERE database = '\(db)' AND active"
        let stored = Set(try client.query(activeParts).rows.map { "\($0)" })

        // New pairs in new groups (model, position, item), in two batches.
        let lines = (0..<3_000).map { Self.exposure("late-\($0)", impression: "late-imp-\($0 / 10)", model: "m-late-\($0 % 3)",
                                                    position: 40 + $0 % 7, ms: 1_795_200_000_000 + Int64($0)) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-late-\(UUID().uuidString).ndjson")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertEqual(try ingestor.ingest(file: file.path, onRejection: { _, _ in }).accepted, 3_000)
        let gone = stored.subtracting(try client.query(activeParts).rows.map { "\($0)" })
        XCTAssertTrue(gone.isEmpty, "parts the ingest had merged: \(gone.sorted())")
        // The member sets now span several parts; the reports read them all.
        let folder = try temporaryFolder("tally-feed")
        let store = try EventStore(path: folder.appendingPathComponent("feed.sqlite").path)
        let sqlite = try Ingestor(store: store)
        for path in TestServer.sampleFiles + [file.path] { _ = try sqlite.ingest(file: path, onRejection: { _, _ in }) }
        try assertSameExposures(SQLiteReports(store: store), ClickHouseReports(client: client), users: ["u"])
    }

    func testExposuresStoredAgainAfterASendFailedPartWayCountOnce() throws {
        let lines = [Self.exposure("x1", impression: "imp-1", model: "m-a", position: 1, page: "pi-1", item: "item-a"),
                     Self.exposure("x2", impression: "imp-1", model: "m-a", position: 1, ms: 1_795_100_005_000, page: "pi-1", item: "item-a"),
                     Self.feedback("f1", impression: "imp-1", kind: "dislike", reason: "Boring", model: "m-a", position: 1, second: 2)]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        let body = try GroupIngestTests.chunk(lines)
        // The events and the feed states are stored, the send fails; then the body comes again.
        try GroupIngestTests.failPartWay(ingestor, body, client)
        _ = try ingestor.store(group: [body])

        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite([lines], in: folder), actual = ClickHouseReports(client: client)
        try assertSameExposures(expected, actual, users: ["u"])
        try assertSameDislikeRates(expected, actual)
        let marks = "SELECT count() FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0"
        XCTAssertEqual(try client.query(marks).rows, [[.int(0)]])
    }

    func testReadingsAndExposuresStoredAgainTogetherCountOnceEverywhere() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        let body = try GroupIngestTests.chunk(["a", "b", "c"].map { GroupIngestTests.reading($0) }
            + [Self.exposure("x1", impression: "imp-1", model: "m-a", position: 1, page: "pi-1", item: "item-a")])
        try GroupIngestTests.failPartWay(ingestor, body, client)
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
        _ = try ingestor.store(group: [try GroupIngestTests.chunk(Self.batches[0])])
        let once = try counters(client), oncePerUser = try userCounters(client)
        // A resend stored the batch's changes a second time (and a state, which changes nothing); the
        // run stopped after the mark.
        try client.execute("CREATE TABLE impression_reactions__rollups_stale (stale UInt8) ENGINE = TinyLog")
        try client.execute("INSERT INTO impression_reactions SELECT * FROM impression_reactions")
        try client.execute("""
            INSERT INTO impression_changes (user_id, kind, model_info, feed_position, exposed_delta, dislikes_delta)
            SELECT user_id, 0, model_info, feed_position, exposed_count, dislike_count FROM dislike_user_groups
            """)
        XCTAssertNotEqual(try counters(client), once)
        XCTAssertNotEqual(try userCounters(client), oncePerUser)
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try counters(client), once)
        XCTAssertEqual(try userCounters(client), oncePerUser)
        XCTAssertEqual(try client.query("SELECT count() FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0").rows,
                       [[.int(0)]])
    }

    func testTheServerKeepsTheStatesAndADatabaseWhoseIngestWroteThemIsConverted() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try store([Self.batches[0]], in: client)
        XCTAssertEqual(try client.query("""
            SELECT name, engine FROM system.tables
            WHERE database = currentDatabase() AND name IN ('impression_exposures', 'impression_reactions', 'exposure_pairs',
                                                            'impression_changes', 'exposure_changes')
            ORDER BY name
            """).rows, [[.text("exposure_changes"), .text("Null")], [.text("exposure_pairs"), .text("AggregatingMergeTree")],
                        [.text("impression_changes"), .text("Null")], [.text("impression_exposures"), .text("AggregatingMergeTree")],
                        [.text("impression_reactions"), .text("AggregatingMergeTree")]])
        let kept = try counters(client), keptPerUser = try userCounters(client)
        // The earlier layout: the ingest wrote the states and the changes into impression_states
        // and a MergeTree exposure_pairs, and the counters' views read them.
        try client.execute("""
            CREATE TABLE impression_states (user_id String, impression_id String, kind UInt8, model_info String, model_null UInt8,
                                            feed_position Int64, position_null UInt8, dislikes_delta Int64)
            ENGINE = MergeTree ORDER BY (user_id, impression_id)
            """)
        try client.execute("DROP TABLE exposure_pairs_mv")
        try client.execute("DROP TABLE exposure_pairs")
        try client.execute("""
            CREATE TABLE exposure_pairs (page_instance_id String, item_id String, kind UInt8, events Int64)
            ENGINE = MergeTree ORDER BY (page_instance_id, item_id)
            """)
        try client.execute("DROP TABLE dislike_groups_changes_mv")
        try client.execute("""
            CREATE MATERIALIZED VIEW dislike_groups_mv TO dislike_groups AS
            SELECT model_info, model_null, feed_position, position_null, toInt64(0) AS exposed_count, toInt64(0) AS feedback_only_count,
                   toInt64(0) AS like_count, sum(dislikes_delta) AS dislike_count
            FROM impression_states WHERE kind = 2 GROUP BY model_info, model_null, feed_position, position_null
            """)
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try counters(client), kept)
        XCTAssertEqual(try userCounters(client), keptPerUser)
        XCTAssertEqual(try client.query("""
            SELECT name FROM system.tables
            WHERE database = currentDatabase() AND (position(name, 'dislike_groups_') = 1 OR name = 'impression_states') ORDER BY name
            """).rows, [[.text("dislike_groups_changes_mv")]])

        // The next batch counts once, through the new view only.
        _ = try ClickHouseIngestor(client: client).store(group: [try GroupIngestTests.chunk(Self.batches[1])])
        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite(Self.batches, in: folder)
        try assertSameDislikeRates(expected, ClickHouseReports(client: client))
        try assertSameExposures(expected, ClickHouseReports(client: client), users: ["u"])
    }

    func testAPairAndAnImpressionWhoseEventsSpanMonthsAreReadWhole() throws {
        let november: Int64 = 1_795_100_000_000, october: Int64 = 1_795_100_000_000 - 30 * 86_400_000
        // One pair and impression: exposed in October, again in November with a dislike, then an
        // exposure of the day before October's arrives last and moves the pair to its groups.
        let batches = [
            [Self.exposure("e1", impression: "imp-1", model: "m-a", position: 1, ms: october, page: "p-1", item: "i-1")],
            [Self.exposure("e2", impression: "imp-1", model: "m-b", position: 2, ms: november, page: "p-1", item: "i-1"),
             Self.feedback("f1", impression: "imp-1", kind: "dislike", reason: "Old", model: "m-b", position: 2, second: 3)],
            [Self.exposure("e0", impression: "imp-1", model: "m-c", position: 3, ms: october - 86_400_000, page: "p-1", item: "i-1")],
        ]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try store(batches, in: client)
        XCTAssertEqual(try client.query("SELECT uniqExact(month) FROM exposure_pairs").rows, [[.int(2)]], "a state per month")
        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite(batches, in: folder)
        try assertSameDislikeRates(expected, ClickHouseReports(client: client))
        try assertSameExposures(expected, ClickHouseReports(client: client), users: ["u"])
        XCTAssertEqual(try client.query("SELECT sum(exposure_count), sum(duplicate_count) FROM exposure_groups WHERE dimension = 'model'").rows,
                       [[.int(1), .int(2)]], "one pair, in the group of its earliest exposure, with two duplicates")
    }

    func testEachUsersCountersAndMemberSetsAreKeptPerMonthAndUnpartitionedTablesAreRemade() throws {
        let november: Int64 = 1_795_100_000_000, october: Int64 = november - 30 * 86_400_000
        let batches = [
            [Self.exposure("e1", impression: "imp-1", model: "m-a", position: 1, ms: october, page: "p-1", item: "i-1"),
             Self.exposure("e2", impression: "imp-2", model: "m-a", position: 1, ms: november, page: "p-2", item: "i-2"),
             Self.exposure("e3", impression: "imp-3", model: "m-a", position: 2, ms: november, page: "p-3", item: "i-1", user: "v")],
            [Self.exposure("e4", impression: "imp-4", model: "m-b", position: 1, ms: october, page: "p-4", item: "i-3"),
             Self.exposure("e5", impression: "imp-2", model: "m-a", position: 1, ms: november + 1_000, page: "p-2", item: "i-2"),
             Self.exposure("e6", impression: "imp-3", model: "m-a", position: 2, ms: november + 2_000, page: "p-3", item: "i-1", user: "v")],
            // p-2's earliest exposure arrives late, in October: its counts leave November.
            [Self.exposure("e7", impression: "imp-2", model: "m-a", position: 1, ms: october + 1_000, page: "p-2", item: "i-2")],
        ]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try store(batches, in: client)
        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite(batches, in: folder)
        let tables = ["exposure_user_groups", "exposure_user_members"]
        func partitions(_ table: String) throws -> [String] {
            try client.texts("""
                SELECT DISTINCT partition FROM system.parts WHERE database = '\(client.database)' AND table = '\(table)' AND active
                """).sorted()
        }
        func assertKeptPerMonth(_ note: String) throws {
            // A load's merges rewrite the counters and sets of the months it brings, not every user's.
            for table in tables { XCTAssertEqual(try partitions(table), ["2026-10", "2026-11"], "\(note) \(table)") }
            XCTAssertEqual(try client.query("""
                SELECT user_id, month, sum(exposure_count), sum(duplicate_count) FROM exposure_user_groups WHERE dimension = 'day'
                GROUP BY user_id, month HAVING sum(exposure_count) != 0 OR sum(duplicate_count) != 0 ORDER BY user_id, month
                """).rows, [[.text("u"), .text("2026-10"), .int(3), .int(2)], [.text("v"), .text("2026-11"), .int(1), .int(1)]], note)
            try assertSameExposures(expected, ClickHouseReports(client: client), users: ["u", "v"], note + " ")
        }
        try assertKeptPerMonth("by month")
        XCTAssertEqual(try client.texts("""
            SELECT toString(position(engine_full, 'index_granularity = 256') > 0) FROM system.tables
            WHERE database = currentDatabase() AND name = 'exposure_user_groups'
            """), ["1"], "a user's counters are read in marks of 256 rows, a mark per month")

        // The tables as the earlier layouts made them (one partition, no month) are made again.
        for name in try client.texts("""
            SELECT name FROM system.tables WHERE database = '\(client.database)' AND (name LIKE 'exposure_user_members%' OR name LIKE 'exposure_user_groups%')
            """) {
            try client.execute("DROP TABLE \(name)")
        }
        try client.execute("""
            CREATE TABLE exposure_user_members (user_id String, dimension String, group_value String, group_null UInt8,
                                                items AggregateFunction(uniqExact, String))
            ENGINE = AggregatingMergeTree ORDER BY (user_id, dimension, group_value, group_null)
            """)
        try client.execute("""
            CREATE TABLE exposure_user_groups (user_id String, dimension String, group_value String, group_null UInt8,
                                               exposure_count Int64, duplicate_count Int64)
            ENGINE = SummingMergeTree ORDER BY (user_id, dimension, group_value, group_null)
            """)
        try ClickHouseSchema.create(using: client)
        try assertKeptPerMonth("remade")
    }

    func testEachUsersCountersAnswerTheirReportsAsTheirEventsDo() throws {
        // u's imp-1 moves to a newer reaction's group; v's impressions share u's ids and groups.
        let batches = Self.batchesOfTwoUsers
            + [[Self.feedback("vf9", impression: "imp-9", kind: "dislike", reason: "Loud", model: "m-c", position: 7, second: 4, user: "v")]]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try store(batches, in: client)

        XCTAssertEqual(try client.query("""
            SELECT user_id, model_info, feed_position, sum(exposed_count), sum(feedback_only_count), sum(like_count), sum(dislike_count)
            FROM dislike_user_groups GROUP BY user_id, model_info, feed_position
            HAVING sum(exposed_count) + sum(feedback_only_count) + sum(like_count) + sum(dislike_count) != 0
            ORDER BY user_id, model_info, feed_position
            """).rows, [
            [.text("u"), .text("m-a"), .int(1), .int(1), .int(0), .int(0), .int(0)],
            [.text("u"), .text("m-a"), .int(2), .int(1), .int(0), .int(1), .int(0)],
            [.text("u"), .text("m-b"), .int(3), .int(0), .int(1), .int(1), .int(0)],
            [.text("v"), .text("m-a"), .int(1), .int(1), .int(0), .int(0), .int(0)],
            [.text("v"), .text("m-a"), .int(2), .int(1), .int(0), .int(1), .int(0)],
            [.text("v"), .text("m-b"), .int(3), .int(0), .int(1), .int(1), .int(0)],
            [.text("v"), .text("m-c"), .int(7), .int(0), .int(1), .int(0), .int(1)],
        ], "each user's impressions count under that user only")
        XCTAssertEqual(try client.query("SELECT user_id, reason, sum(reason_count) FROM dislike_user_reason_counts GROUP BY user_id, reason HAVING sum(reason_count) != 0").rows,
                       [[.text("v"), .text("Loud"), .int(1)]])
        XCTAssertEqual(try client.query("""
            SELECT user_id, sum(exposure_count) FROM exposure_user_groups WHERE dimension = 'day' GROUP BY user_id ORDER BY user_id
            """).rows, [[.text("u"), .int(2)], [.text("v"), .int(2)]])
        XCTAssertEqual(try client.query("""
            SELECT position(engine_full, 'index_granularity = 256') > 0 FROM system.tables
            WHERE database = currentDatabase() AND name = 'exposure_user_members'
            """).rows, [[.int(1)]], "a user's item sets are read in marks of 256 states, not 8,192")

        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite(batches, in: folder), actual = ClickHouseReports(client: client)
        for grouping in Self.groupings + [DislikeGrouping(buckets: try DislikeGrouping.buckets("0-2,3-"))] {
            for user in [nil, "u", "v", "w"] {
                XCTAssertEqual(try actual.dislikeRate(grouping, topReasons: 2, user: user),
                               try expected.dislikeRate(grouping, topReasons: 2, user: user), "\(grouping) \(user ?? "all")")
            }
        }
        // The comparison's counts per user: every user's rows of `dislike_user_groups` by model and
        // position; by model alone from the events, since impressions here span groups.
        XCTAssertNotEqual(try client.query("SELECT sum(value) FROM rollup_counters WHERE name = 'impressions_in_several_groups'").rows,
                          [[.int(0)]])
        for grouping in [DislikeGrouping(), DislikeGrouping(byModel: true, byPosition: false),
                         DislikeGrouping(buckets: try DislikeGrouping.buckets("0-2,3-"))] {
            for user in [nil, "u", "v"] {
                XCTAssertEqual(try actual.compare(baseline: "m-a", grouping: grouping, user: user, filter: FeedFilter()),
                               try expected.compare(baseline: "m-a", grouping: grouping, user: user, filter: FeedFilter()),
                               "compare \(grouping) \(user ?? "all")")
            }
        }
        // A database no `init` of this version has opened has no dates per model: the events give them.
        for table in ["exposure_model_dates", "feedback_model_dates"] {
            try client.execute("DROP TABLE \(table)_mv")
            try client.execute("DROP TABLE \(table)")
        }
        XCTAssertEqual(try actual.compare(baseline: "m-a", grouping: DislikeGrouping(), user: nil, filter: FeedFilter()),
                       try expected.compare(baseline: "m-a", grouping: DislikeGrouping(), user: nil, filter: FeedFilter()))
        try assertSameExposures(expected, actual, users: ["u", "v", "w"])
    }

    func testAPairWithEventsOfSeveralUsersSendsTheirReportsToTheirOwnEvents() throws {
        // pi-1 gets a second user in one batch, pi-2 in the next; each user alone sees their own events.
        let batches = [
            [Self.exposure("x1", impression: "imp-1", model: "m-a", position: 1, page: "pi-1", item: "item-a"),
             Self.exposure("x2", impression: "imp-1", model: "m-b", position: 2, ms: 1_795_100_005_000, page: "pi-1", item: "item-a",
                           user: "v"),
             Self.exposure("x3", impression: "imp-2", model: "m-a", position: 3, page: "pi-2", item: "item-b")],
            [Self.exposure("x4", impression: "imp-2", model: "m-c", position: 4, ms: 1_795_100_009_000, page: "pi-2", item: "item-b",
                           user: "v")],
        ]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        _ = try ingestor.store(group: [try GroupIngestTests.chunk(batches[0])])
        let shared = "SELECT sum(value) FROM exposure_counters WHERE name = 'pairs_of_several_users'"
        XCTAssertEqual(try client.query(shared).rows, [[.int(1)]], "pi-1, within the batch")
        _ = try ingestor.store(group: [try GroupIngestTests.chunk(batches[1])])
        XCTAssertEqual(try client.query(shared).rows, [[.int(2)]], "pi-2, against the stored pair")

        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite(batches, in: folder), actual = ClickHouseReports(client: client)
        try assertSameExposures(expected, actual, users: ["u", "v"], "counted at ingest: ")
        // Made again from the events: the same count.
        try client.execute("CREATE TABLE exposure_events__rollups_stale (stale UInt8) ENGINE = TinyLog")
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try client.query(shared).rows, [[.int(2)]])
        try assertSameExposures(expected, actual, users: ["u", "v"], "remade: ")
    }

    func testAFillRunInPassesAddsUpToTheWholeStore() throws {
        // Two users with impressions of the same ids and groups, a reaction moved by a later batch,
        // and pairs whose events come from both users (kept whole in one pass by their page instance).
        let batches = Self.batchesOfTwoUsers + [[
            Self.exposure("x1", impression: "imp-7", model: "m-a", position: 1, page: "pi-1", item: "item-a"),
            Self.exposure("x2", impression: "imp-7", model: "m-b", position: 2, ms: 1_795_100_005_000, page: "pi-1", item: "item-a",
                          user: "v"),
            Self.exposure("x3", impression: "imp-8", model: "m-a", position: 3, page: "pi-2", item: "item-b"),
            Self.exposure("x4", impression: "imp-8", model: "m-c", position: 4, ms: 1_795_100_009_000, page: "pi-2", item: "item-b",
                          user: "v"),
        ]]
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try store(batches, in: client)
        let counts = "SELECT name, sum(value) FROM (SELECT * FROM rollup_counters UNION ALL SELECT * FROM exposure_counters) GROUP BY name ORDER BY name"
        let kept = try counters(client), keptPerUser = try userCounters(client), keptCounts = try client.query(counts).rows
        XCTAssertEqual(keptCounts, [[.text("impressions_in_several_groups"), .int(2)], [.text("pairs_of_several_users"), .int(2)]])

        // Every rollup remade, each fill in as many passes as its largest table has rows.
        for family in EventFamily.allCases {
            try ClickHouseRollups.markStale(fedBy: family.clickHouseTable, using: client)
        }
        try ClickHouseRollups.create(using: client, cluster: nil, rowsPerPass: 1)
        XCTAssertEqual(try counters(client), kept)
        XCTAssertEqual(try userCounters(client), keptPerUser)
        XCTAssertEqual(try client.query(counts).rows, keptCounts)
        let folder = try temporaryFolder("tally-feed")
        let expected = try sqlite(batches, in: folder), actual = ClickHouseReports(client: client)
        for grouping in Self.groupings {
            for user in [nil, "u", "v"] {
                XCTAssertEqual(try actual.dislikeRate(grouping, topReasons: 2, user: user),
                               try expected.dislikeRate(grouping, topReasons: 2, user: user), "\(grouping) \(user ?? "all")")
            }
        }
        try assertSameExposures(expected, actual, users: ["u", "v"])
    }
}
