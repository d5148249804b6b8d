import Foundation
import TallyClickHouse
import TallyIngest
import TallyQuery
import XCTest

/// A batch's lookups (its keys in the event tables, its pairs in `exposure_pairs`, its impressions
/// in `impression_exposures` and `impression_reactions`) read what the batch may find, not the
/// whole table, however random the keys; the sets they probe hold every stored value, also in a
/// store made before them, after an interrupted filling and after a run stopped mid-batch; and
/// what the ingest finds is unchanged.
final class ProbeSetTests: XCTestCase {
    /// The `Set` tables, the table each one's values are stored in, and their columns.
    private static let sets = [("event_key_probe", """
                                (SELECT 'exposure' AS family, event_id AS key FROM exposure_events
                                 UNION ALL SELECT 'feedback', id FROM feedback_events)
                                """, "family, key"),
                               ("exposure_pair_probe", "exposure_pairs", "page_instance_id, item_id"),
                               ("impression_probe", """
                                (SELECT user_id, impression AS impression_id FROM impression_exposures
                                 UNION ALL SELECT user_id, impression_id FROM impression_reactions)
                                """, "user_id, impression_id")]

    /// `count` exposure events of new page instances and impressions, and a feedback event on
    /// each `feedbackEvery`-th impression (none when 0), with random keys.
    private func feed(_ count: Int, from start: Int, feedbackEvery: Int = 0) -> [String] {
        var lines: [String] = []
        for index in start..<(start + count) {
            let user = "u-\(index % 40)", ms = 1_795_000_000_000 + index * 1000
            lines.append(#"{"eventId":"\#(UUID().uuidString.lowercased())","eventType":"exposure","clientTimestampMs":\#(ms),"userId":"\#(user)","#
                         + #""pageId":"home","pageInstanceId":"\#(UUID().uuidString.lowercased())","itemId":"item-\#(index % 97)","#
                         + #""impressionId":"imp-\#(index)","modelInfo":"m1","feedPosition":\#(index % 9)}"#)
            if feedbackEvery > 0, index % feedbackEvery == 0 {
                lines.append(#"{"id":"\#(UUID().uuidString.lowercased())","timestamp":\#(ms + 500),"feedbackType":"dislike","#
                             + #""context":{"impressionId":"imp-\#(index)","modelInfo":"m1","feedPosition":\#(index % 9)},"userId":"\#(user)"}"#)
            }
        }
        return lines
    }

    /// A number of an answer, -1 for anything else.
    private func number(_ value: ReportValue?) -> Int64 {
        if case .int(let number)? = value { return number }
        return -1
    }

    private func ingest(_ lines: [String], into client: ClickHouseClient, batchSize: Int = 100_000) throws -> IngestCounts {
        try ClickHouseIngestor(client: client, batchSize: batchSize).ingest(
            try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "feed.ndjson"), onRejection: { _, _ in })
    }

    /// Stored values each set lacks (none when the lookups can trust it).
    private func missing(_ client: ClickHouseClient) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        for (set, table, columns) in Self.sets {
            out[set] = number(try client.query("SELECT count() FROM \(table) WHERE cityHash64(\(columns)) NOT IN \(set)").rows.first?.first)
        }
        return out
    }

    func testABatchReadsWhatItMayFindNotTheWholeTable() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        // 60,000 exposures of 40 users: one user's exposures fill two granules at most, under half the table.
        let stored = feed(60_000, from: 0, feedbackEvery: 3)
        XCTAssertEqual(try ingest(stored, into: client).accepted, 80_000)
        // Merged into one part each, as a store's tables are once the server has merged them.
        for table in ["exposure_events", "feedback_events", "exposure_pairs", "impression_exposures", "impression_reactions"] {
            try client.execute("OPTIMIZE TABLE \(table) FINAL")
        }
        let log = try client.query("SELECT count() FROM system.tables WHERE database = 'system' AND name = 'query_log'").rows
        guard log == [[.int(1)]] else { throw XCTSkip("the server keeps no query_log to read the lookups' costs from") }
        let since = try client.texts("SELECT toString(now())").first ?? ""
        Thread.sleep(forTimeInterval: 1.1)

        // New exposures, feedback again on a stored impression, an exposure again on its stored
        // pair, and a stored event sent again.
        var next = feed(500, from: 60_000)
        next += feed(1, from: 0, feedbackEvery: 3).filter { $0.contains(#""feedbackType""#) }
        next.append(stored[0].replacingOccurrences(of: #""eventId":""#, with: #""eventId":"again-"#))
        next.append(stored[0])
        XCTAssertEqual(try ingest(next, into: client), IngestCounts(accepted: 502, duplicates: 1, rejected: 0))

        try client.execute("SYSTEM FLUSH LOGS")
        // The keys' lookup reads the tables of the families whose keys the set holds (the exposure
        // sent again), the impressions' lookup both their tables, each in one statement.
        for (table, external, read) in [("exposure_events", "batch_keys", ["exposure_events"]), ("exposure_pairs", "batch_pairs", ["exposure_pairs"]),
                                        ("impression_exposures", "batch_impressions", ["impression_exposures", "impression_reactions"])] {
            let size = try read.map { number(try client.query("SELECT count() FROM \($0)").rows.first?.first) }.reduce(0, +)
            let reads = try client.query("""
                SELECT read_rows FROM system.query_log
                WHERE type = 2 AND event_time >= toDateTime('\(since)') AND position(query, 'FROM \(table) WHERE') > 0
                  AND position(query, '\(external)') > 0
                """).rows.map { number($0.first) }
            // Another ingest on the same server in that second may add its lookups: none may read much.
            XCTAssertFalse(reads.isEmpty, "the lookup in \(table) is logged")
            XCTAssertLessThan(reads.max() ?? .max, size / 2, "the lookup in \(table) (\(size) rows) reads a few granules")
        }
    }

    func testAStoreMadeBeforeTheSetsGetsThemFilledAndFindsItsDuplicates() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let stored = feed(300, from: 0, feedbackEvery: 2)
        XCTAssertEqual(try ingest(stored, into: client, batchSize: 100).accepted, 450)
        for (set, _, _) in Self.sets {
            for view in try client.texts("SELECT name FROM system.tables WHERE database = currentDatabase() AND position(name, '\(set)_mv') = 1") {
                try client.execute("DROP TABLE \(view)")
            }
            try client.execute("DROP TABLE \(set)")
        }
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try missing(client), ["event_key_probe": 0, "exposure_pair_probe": 0, "impression_probe": 0])
        XCTAssertEqual(try ingest(stored, into: client, batchSize: 100), IngestCounts(accepted: 0, duplicates: 450, rejected: 0))
        // Each stored pair exposed again, and each disliked impression liked later: found stored,
        // so the pairs count once with a duplicate each, and the likes replace the dislikes.
        let again = stored.map {
            $0.replacingOccurrences(of: #""eventId":""#, with: #""eventId":"again-"#)
                .replacingOccurrences(of: #""id":""#, with: #""id":"again-"#)
                .replacingOccurrences(of: #""feedbackType":"dislike""#, with: #""feedbackType":"like""#)
                .replacingOccurrences(of: #"500,"feedbackType""#, with: #"900,"feedbackType""#)
        }
        XCTAssertEqual(try ingest(again, into: client, batchSize: 100), IngestCounts(accepted: 450, duplicates: 0, rejected: 0))
        XCTAssertEqual(try client.query("""
            SELECT sum(exposure_count), sum(duplicate_count) FROM exposure_groups WHERE dimension = 'day'
            """).rows, [[.int(300), .int(300)]])
        XCTAssertEqual(try client.query("SELECT sum(like_count), sum(dislike_count) FROM dislike_groups").rows, [[.int(150), .int(0)]])
    }

    func testAnInterruptedFillingIsDoneAgain() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        for view in 0..<4 { try client.execute("DROP TABLE event_key_probe_mv\(view)") }
        try client.execute("DROP TABLE event_key_probe")
        try client.execute("CREATE TABLE event_key_probe (h UInt64) ENGINE = Set")
        try client.execute("CREATE TABLE event_key_probe__filling (filling UInt8) ENGINE = TinyLog")
        // Stored while the set has no view: only the filling the mark asks for brings the keys in.
        XCTAssertEqual(try ingest(feed(2, from: 0, feedbackEvery: 1), into: client).accepted, 4)
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try missing(client)["event_key_probe"], 0)
        XCTAssertEqual(try client.query("SELECT count() FROM system.tables WHERE database = currentDatabase() AND position(name, '__') > 0").rows,
                       [[.int(0)]], "the mark is dropped")
        XCTAssertEqual(try ingest(feed(1, from: 2, feedbackEvery: 1), into: client).accepted, 2)
        XCTAssertEqual(try missing(client)["event_key_probe"], 0, "the views feed the set again")
    }

    func testARunStoppedMidBatchHasTheSetsFilledAgain() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        // The first batch's exposures reach their table, and on 18.16 none of its views.
        try TestServer.refuseInserts(into: "exposure_events", beforeItsViews: true, using: client)
        XCTAssertThrowsError(try ingest(feed(200, from: 0, feedbackEvery: 2), into: client, batchSize: 50))
        try TestServer.acceptInserts(into: "exposure_events", using: client)
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try missing(client), ["event_key_probe": 0, "exposure_pair_probe": 0, "impression_probe": 0])
        XCTAssertEqual(try client.query("SELECT count() FROM system.tables WHERE database = currentDatabase() AND position(name, '__') > 0").rows,
                       [[.int(0)]], "no mark is left")
    }
}
