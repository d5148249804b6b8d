import Foundation
import TallyEvents
import TallyQuery
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// The dislike rate under the feed filters and the model comparison read the counters kept per
/// slice (`dislike_rate_models.sql`, `compare_dates_models.sql`); these tests hold them to what
/// the events give (`dislike_rate_scan.sql`, `compare_dates.sql`) under every filter and grouping.
final class FeedSliceTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-slices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Exposure and feedback events of 300 impressions of 4 users, in random order: most keep
    /// to one local date, platform, app version, model and position; one event in five moves one
    /// of them (a date across midnight or another zone, no platform, another version, model or
    /// position); some exposures have no impression or no model and position; most dislikes give
    /// one of two reasons.
    static func feedLines() -> [String] {
        var rng = SplitMix64(seed: 7)
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        let day: Int64 = 86_400_000, start: Int64 = 1_790_000_000_000
        var lines: [String] = []
        for i in 0..<300 {
            let user = "u\(i % 4)", impression = "imp\(i)"
            var ts = start + Int64(rng.next() % 20) * day + Int64(rng.next() % UInt64(day))
            var zone = pick([0, 540, -300]), platform: String? = pick(["ios", "android"])
            var version: String? = pick(["1.0", "2.0"]), model = pick(["rec-a", "rec-b", "rec-c"])
            var position = Int(rng.next() % 3)
            for e in 0..<Int(1 + rng.next() % 4) {
                if rng.next() % 5 == 0 {
                    switch rng.next() % 6 {
                    case 0: ts += day / 2
                    case 1: zone = pick([0, 540, -300, 840])
                    case 2: platform = nil
                    case 3: version = pick(["1.0", "2.0", nil])
                    case 4: position = Int(rng.next() % 3)
                    default: model = pick(["rec-a", "rec-b", "rec-c"])
                    }
                }
                ts += Int64(rng.next() % 600_000)
                var common = #""userId":"\#(user)","clientTimezoneOffsetMinutes":\#(zone)"#
                if let platform { common += #","platform":"\#(platform)""# }
                if let version { common += #","appVersion":"\#(version)""# }
                if rng.next() % 5 < 3 {
                    let withImpression = rng.next() % 20 != 0, withModel = rng.next() % 20 != 0
                    let feed = (withImpression ? #","impressionId":"\#(impression)""# : "")
                        + (withModel ? #","modelInfo":"\#(model)","feedPosition":\#(position)"# : "")
                    lines.append(#"{"eventId":"x\#(i)-\#(e)","eventType":"exposure",\#(common),"pageInstanceId":"p\#(i)","itemId":"i\#(i)"\#(feed),"clientTimestampMs":\#(ts)}"#)
                } else {
                    let kind = pick(["like", "dislike", "neutral"])
                    let reason = kind == "dislike" && (i + e) % 3 != 0 ? #","reason":"\#(["boring", "seen"][(i + e) % 2])""# : ""
                    lines.append(#"{"id":"f\#(i)-\#(e)",\#(common),"timestamp":\#(ts),"feedbackType":"\#(kind)","context":{"impressionId":"\#(impression)","modelInfo":"\#(model)","feedPosition":\#(position)}\#(reason)}"#)
                }
            }
        }
        for i in stride(from: lines.count - 1, to: 0, by: -1) {
            lines.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        return lines
    }

    /// A store of `feedLines()`, stored 37 records to a commit so that most impressions are
    /// merged with what an earlier commit stored.
    private func feedStore(_ name: String) throws -> EventStore {
        let store = try EventStore(path: directory.appendingPathComponent(name).path)
        try Ingestor(store: store).store(lines: Self.feedLines(), groupSize: 37)
        return store
    }

    /// The filters tried: none, windows of one and several days, either bound, a platform, an app version, and mixed.
    private let filters: [[String: QueryValue]] = {
        var filters: [[String: QueryValue]] = []
        let dates: [QueryValue] = [.null, .text("2026-09-23"), .text("2026-09-25"), .text("2026-09-30"), .text("2026-10-05")]
        for from in dates {
            for to in dates {
                filters.append(["from": from, "to": to, "platform": .null, "app_version": .null])
            }
        }
        for platform: QueryValue in [.null, .text("ios"), .text("android")] {
            for version: QueryValue in [.null, .text("1.0"), .text("2.0")] {
                filters.append(["from": .null, "to": .text("2026-09-30"), "platform": platform, "app_version": version])
                filters.append(["from": .null, "to": .null, "platform": platform, "app_version": version])
            }
        }
        return filters
    }()

    private func sortedRows(_ reports: SQLiteReports, _ query: String, _ parameters: [String: QueryValue]) throws -> [String] {
        try reports.savedRows(query, parameters: parameters).map { "\($0)" }.sorted()
    }

    /// The groupings tried: by model, position, both, none, and position buckets with and without model.
    private let groupings: [[String: QueryValue]] = [(0, 0, nil), (1, 0, nil), (0, 1, nil), (1, 1, nil), (1, 1, "0-0,1-"), (0, 1, "1-1,2-")]
        .map { byModel, byPosition, buckets in
            ["by_model": .int(byModel), "by_position": .int(byPosition),
             "buckets": buckets.map { .text(DislikeGrouping(buckets: try! DislikeGrouping.buckets($0)).bucketsJSON!) } ?? .null]
        }

    func testTheSliceCountersGiveWhatTheEventsGiveUnderEveryFilterAndGrouping() throws {
        let store = try feedStore("slices.sqlite")
        let db = store.database
        XCTAssertGreaterThan(try db.scalarInt("SELECT count(*) FROM impression_slices WHERE spans = 1") ?? 0, 20,
                             "impressions holding several slices or groups")
        XCTAssertGreaterThan(try db.scalarInt("""
            SELECT count(*) FROM (SELECT DISTINCT user_id, impression_id, model_info FROM spanning_impression_slices
                                  GROUP BY user_id, impression_id, local_date, platform, app_version HAVING count(DISTINCT feed_position) > 1)
            """) ?? 0, 3, "impressions holding several positions of one slice")
        XCTAssertGreaterThan(try db.scalarInt("SELECT count(*) FROM impression_slices WHERE spans = 0") ?? 0, 100,
                             "impressions counted in the cells")
        let reports = SQLiteReports(store: store)
        for filter in filters {
            for grouping in groupings {
                let parameters = filter.merging(grouping) { $1 }.merging(["by_user": .int(0), "user": .null]) { $1 }
                XCTAssertEqual(try reports.savedRows("dislike_rate_models", parameters: parameters),
                               try reports.savedRows("dislike_rate_scan", parameters: parameters).map { Array($0.prefix(6)) },
                               "\(parameters)")
                if grouping["by_model"] == .int(1) {
                    // The comparison's rows, added up per group and user, are the scan's per user.
                    let perUser = parameters.merging(["by_user": .int(1)]) { $1 }
                    func int(_ value: ReportValue) -> Int64 { if case .int(let v) = value { v } else { 0 } }
                    var sums: [String: (exposures: Int64, dislikes: Int64)] = [:]
                    for row in try reports.savedRows("compare_counts", parameters: perUser) {
                        let key = "\([row[0], row[1], row[4]])", sum = sums[key] ?? (0, 0)
                        sums[key] = (sum.exposures + int(row[2]), sum.dislikes + int(row[3]))
                    }
                    let counted = sums.filter { $0.value.exposures > 0 }.map { "\($0.key) \($0.value.exposures) \($0.value.dislikes)" }
                    let scanned = try reports.savedRows("dislike_rate_scan", parameters: perUser).map { row in
                        "\([row[0], row[1], row[6]]) \(int(row[2])) \(int(row[4]))"
                    }
                    XCTAssertEqual(counted.sorted(), scanned.sorted(), "\(perUser)")
                }
                XCTAssertEqual(try sortedRows(reports, "compare_dates_models", parameters),
                               try sortedRows(reports, "compare_dates", parameters), "\(parameters)")
            }
        }
    }

    /// The reports of `dislikeRate` and `modelComparison` under some filters and groupings, as text.
    private func answers(_ store: EventStore) throws -> [String] {
        let reports = SQLiteReports(store: store)
        var answers: [String] = []
        for filter in [FeedFilter(), FeedFilter(from: LocalDate(iso: "2026-09-25"), to: LocalDate(iso: "2026-10-05")),
                       FeedFilter(platform: "ios", appVersion: "2.0")] {
            for grouping in [DislikeGrouping(), DislikeGrouping(byPosition: false), DislikeGrouping(byModel: false),
                             DislikeGrouping(buckets: try DislikeGrouping.buckets("0-0,1-"))] {
                answers.append("\(try reports.dislikeRate(grouping, filter: filter).rows)")
                let comparison = try reports.modelComparison(grouping, user: nil, filter: filter)
                answers.append("\(try comparison.report(baseline: "rec-a").rows)")
            }
        }
        return answers
    }

    /// Every row of `tables` (tables or views), sorted.
    private func rows(_ db: Database, _ tables: [String]) throws -> [String] {
        try tables.flatMap { table in try db.prepare("SELECT '\(table)', * FROM \(table)").allRows().map { "\($0)" } }.sorted()
    }

    /// Takes a store back to schema version 13: `impression_exposures` and `impression_reactions`
    /// as tables holding the views' rows (an impression's exposure groups in the run of its
    /// slices), the slice tables without `reason`, and neither `model_position_users` nor
    /// `model_users` (version 14 makes and fills them anew).
    private static let undoOneStatePerImpression = """
        CREATE TABLE reactions (
            user_id TEXT NOT NULL, impression_id TEXT NOT NULL, ts_ms INTEGER NOT NULL, reaction_key TEXT NOT NULL,
            feedback_type TEXT NOT NULL, reason TEXT, model_info TEXT NOT NULL, feed_position INTEGER NOT NULL,
            PRIMARY KEY (user_id, impression_id)
        ) WITHOUT ROWID;
        INSERT INTO reactions SELECT * FROM impression_reactions;
        DROP VIEW impression_reactions;
        ALTER TABLE reactions RENAME TO impression_reactions;
        CREATE TABLE impression_exposures_settled (
            user_id TEXT NOT NULL, impression_id TEXT NOT NULL, model_info TEXT, feed_position INTEGER);
        CREATE TABLE impression_exposures_recent (
            user_id TEXT NOT NULL, impression_id TEXT NOT NULL, model_info TEXT, feed_position INTEGER);
        INSERT INTO impression_exposures_settled
            SELECT e.* FROM impression_exposures e JOIN impression_slices_settled USING (user_id, impression_id);
        INSERT INTO impression_exposures_recent
            SELECT e.* FROM impression_exposures e JOIN impression_slices_recent USING (user_id, impression_id);
        DROP VIEW impression_exposures;
        CREATE INDEX impression_exposures_recent_key
            ON impression_exposures_recent (user_id, impression_id, model_info, feed_position);
        CREATE INDEX impression_exposures_key ON impression_exposures_settled (user_id, impression_id, model_info, feed_position);
        CREATE VIEW impression_exposures AS
            SELECT * FROM impression_exposures_settled UNION ALL SELECT * FROM impression_exposures_recent;
        UPDATE state_runs SET settled = settled + (SELECT count(*) FROM impression_exposures_settled),
            recent = recent + (SELECT count(*) FROM impression_exposures_recent)
        WHERE family = 'impressions';
        DROP VIEW impression_slices;
        ALTER TABLE impression_slices_settled DROP COLUMN reason;
        ALTER TABLE impression_slices_recent DROP COLUMN reason;
        ALTER TABLE spanning_impression_slices DROP COLUMN reason;
        CREATE VIEW impression_slices AS
            SELECT * FROM impression_slices_settled UNION ALL SELECT * FROM impression_slices_recent;
        DROP TABLE model_position_users;
        DROP TABLE model_users;
        DELETE FROM tally_migrations WHERE identifier LIKE 'v14-%';
        """

    /// Takes `db` back to schema version 10: the slice tables by (slice, model) as version 7 made
    /// them, holding their rows less the positions (version 11 makes and fills them anew).
    private func undoSlicesByPosition(_ db: Database) throws {
        try db.execute(Self.undoOneStatePerImpression)
        try db.execute("""
            DROP VIEW impression_slices;
            ALTER TABLE impression_slices_settled DROP COLUMN feed_position;
            ALTER TABLE impression_slices_recent DROP COLUMN feed_position;
            CREATE VIEW impression_slices AS
                SELECT * FROM impression_slices_settled UNION ALL SELECT * FROM impression_slices_recent;
            ALTER TABLE spanning_impression_slices DROP COLUMN feed_position;
            DROP TABLE model_position_user_days;
            CREATE TABLE model_days_by_model (
                model_info TEXT NOT NULL, local_date TEXT NOT NULL, platform NOT NULL, app_version NOT NULL,
                PRIMARY KEY (model_info, local_date, platform, app_version)
            ) WITHOUT ROWID;
            INSERT OR IGNORE INTO model_days_by_model SELECT model_info, local_date, platform, app_version FROM model_days;
            DROP TABLE model_days;
            ALTER TABLE model_days_by_model RENAME TO model_days;
            DELETE FROM tally_migrations WHERE identifier LIKE 'v11-%';
            """)
    }

    /// Takes `db` back to schema version 8: each table of `StateRuns` one table again, holding both runs.
    private func undoStateRuns(_ db: Database) throws {
        try db.execute("DELETE FROM tally_migrations WHERE identifier LIKE 'v12-%' OR identifier LIKE 'v13-%'")
        try undoSlicesByPosition(db)
        try ExposureSliceTests.undoExposureSlices(db)
        for table in ["exposure_firsts", "impression_slices", "impression_exposures"] {
            try db.execute("""
                DROP VIEW \(table);
                ALTER TABLE \(table)_settled RENAME TO \(table);
                INSERT INTO \(table) SELECT * FROM \(table)_recent;
                DROP TABLE \(table)_recent;
                """)
        }
        try db.execute("DROP TABLE state_runs; DROP TABLE state_run_filters; DELETE FROM tally_migrations WHERE identifier LIKE 'v9-%'")
    }

    func testAStoreWithoutTheSliceCountersFillsThemFromItsEvents() throws {
        let store = try feedStore("v4.sqlite")
        let tables = ["impression_slices", "spanning_impression_slices", "model_user_days", "model_position_user_days", "model_days"]
        let ingested = try rows(store.database, tables)
        try undoStateRuns(store.database)
        try store.database.execute("""
            DROP TABLE impression_slices; DROP TABLE spanning_impression_slices; DROP TABLE model_user_days; DROP TABLE model_days;
            DELETE FROM tally_migrations WHERE identifier LIKE 'v7-%';
            """)
        XCTAssertEqual(try rows(EventStore(path: store.database.path).database, tables), ingested)
    }

    /// A store of schema version 9 (slices by model only, both runs holding rows) is given the
    /// slices by position, filled from its events: the same rows as a store that always had
    /// them, the same answers as before, the runs' counts what they hold, and it goes on merging.
    func testAVersion9StoreFillsTheSlicesByPositionWithTheSameAnswers() throws {
        let lines = Self.feedLines()
        let plain = try EventStore(path: directory.appendingPathComponent("plain.sqlite").path)
        try Ingestor(store: plain).store(lines: lines, groupSize: 37)
        let old = try EventStore(path: directory.appendingPathComponent("v9.sqlite").path)
        let ingestor = try Ingestor(store: old)
        ingestor.recentStateSettledAt = 40
        try ingestor.store(lines: Array(lines.prefix(500)), groupSize: 37)
        let partial = try EventStore(path: directory.appendingPathComponent("partial.sqlite").path)
        try Ingestor(store: partial).store(lines: Array(lines.prefix(500)), groupSize: 37)
        let before = try answers(old)
        XCTAssertGreaterThan(try old.database.scalarInt("SELECT recent FROM state_runs WHERE family = 'impressions'") ?? 0, 0)
        try undoSlicesByPosition(old.database)
        let upgraded = try EventStore(path: old.database.path)
        let db = upgraded.database
        XCTAssertEqual(try answers(upgraded), before)
        XCTAssertEqual(try rows(db, feedTables), try rows(partial.database, feedTables))
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM impression_slices_recent"), 0, "filled into the settled run")
        let (family, tables) = StateRuns.impressions
        for run in ["settled", "recent"] {
            let held = try tables.map { try db.scalarInt("SELECT count(*) FROM \($0.name)_\(run)") ?? 0 }.reduce(0, +)
            XCTAssertEqual(try db.scalarInt("SELECT \(run) FROM state_runs WHERE family = '\(family)'"), held, run)
        }
        let more = try Ingestor(store: upgraded)
        more.recentStateSettledAt = 40
        try more.store(lines: lines, groupSize: 37)
        XCTAssertEqual(try rows(db, feedTables), try rows(plain.database, feedTables))
        XCTAssertEqual(try answers(upgraded), try answers(plain))
    }

    /// The tables of the feed's state and every rollup they feed.
    private let feedTables = ["exposure_firsts", "impression_slices", "impression_exposures", "impression_reactions",
                              "spanning_impression_slices", "model_user_days", "model_position_user_days", "model_position_users",
                              "model_users", "model_days", "exposure_groups", "exposure_group_members", "dislike_groups",
                              "dislike_reasons", "rollup_counters"]

    /// The feed's state in two runs (`StateRuns`): settled every few commits, a key's rows read
    /// and changed in whichever run holds them; every row as without settling, the runs' counts
    /// what the runs hold.
    func testSettlingTheFeedStateChangesNoRow() throws {
        let plain = try feedStore("plain.sqlite")
        let store = try EventStore(path: directory.appendingPathComponent("settling.sqlite").path)
        let ingestor = try Ingestor(store: store)
        ingestor.recentStateSettledAt = 40
        try ingestor.store(lines: Self.feedLines(), groupSize: 37)
        let db = store.database
        XCTAssertEqual(try plain.database.scalarInt("SELECT max(generation) FROM state_runs"), 1, "the plain store never settles")
        XCTAssertGreaterThan(try db.scalarInt("SELECT min(generation) FROM state_runs") ?? 0, 3, "each family settled several times")
        XCTAssertEqual(try rows(db, feedTables), try rows(plain.database, feedTables))
        for (family, tables) in [StateRuns.exposurePairs, StateRuns.impressions] {
            for run in ["settled", "recent"] {
                let held = try tables.map { try db.scalarInt("SELECT count(*) FROM \($0.name)_\(run)") ?? 0 }.reduce(0, +)
                XCTAssertEqual(try db.scalarInt("SELECT \(run) FROM state_runs WHERE family = '\(family)'"), held, "\(family) \(run)")
            }
        }
        XCTAssertGreaterThan(try db.scalarInt("SELECT count(*) FROM exposure_firsts_settled") ?? 0, 100)
        XCTAssertGreaterThan(try db.scalarInt("SELECT count(*) FROM impression_slices_settled") ?? 0, 100)
    }

    /// The feed writers read back only what `impression_slices` held of an impression: the
    /// events stored 37 to a commit (most impressions met again in a later commit, read, merged
    /// and written again) leave every row of the feed's state as the same events stored in one
    /// batch, where every impression is new.
    func testTheFeedStateOfManyCommitsIsThatOfOneBatch() throws {
        let plain = try feedStore("plain.sqlite")
        let whole = try EventStore(path: directory.appendingPathComponent("whole.sqlite").path)
        try Ingestor(store: whole).store(lines: Self.feedLines())
        XCTAssertGreaterThan(try whole.database.scalarInt("SELECT count(*) FROM impression_reactions") ?? 0, 100)
        XCTAssertEqual(try rows(plain.database, feedTables), try rows(whole.database, feedTables))
    }

    /// `impression_reactions` and `impression_exposures`, views over the per-impression state,
    /// hold what they held as tables: each impression's newest feedback event, and its distinct
    /// exposure groups.
    func testThePerImpressionViewsHoldWhatTheEventsGive() throws {
        let db = try feedStore("views.sqlite").database
        func sorted(_ sql: String) throws -> [String] { try db.prepare(sql).allRows().map { "\($0)" }.sorted() }
        let reactions = try sorted("SELECT * FROM impression_reactions")
        XCTAssertGreaterThan(reactions.count, 100)
        XCTAssertEqual(reactions, try sorted("""
            SELECT user_id, impression_id, ts_ms, id, feedback_type, reason, model_info, feed_position FROM (
                SELECT *, row_number() OVER (PARTITION BY user_id, impression_id ORDER BY ts_ms DESC, id DESC) AS n
                FROM feedback_events)
            WHERE n = 1
            """))
        let exposures = try sorted("SELECT * FROM impression_exposures")
        XCTAssertGreaterThan(exposures.count, 100)
        XCTAssertEqual(exposures, try sorted("""
            SELECT DISTINCT user_id, impression_id, model_info, feed_position FROM exposure_events WHERE impression_id IS NOT NULL
            """))
        XCTAssertGreaterThan(try db.scalarInt("SELECT count(*) FROM spanning_impression_slices WHERE reason IS NOT NULL") ?? 0, 0)
    }

    /// The filters of settled keys are made from the stored bytes of the keys and asked with the
    /// strings of the events: every settled key, whatever its characters, may be settled.
    func testTheFiltersFindEverySettledKey() throws {
        let lines = Self.feedLines().map {
            $0.replacingOccurrences(of: #""userId":"u"#, with: #""userId":"ü-ユーザー"#)
                .replacingOccurrences(of: #""pageInstanceId":"p"#, with: #""pageInstanceId":"ページ"#)
                .replacingOccurrences(of: #""impressionId":"imp"#, with: #""impressionId":"印象"#)
        }
        let store = try EventStore(path: directory.appendingPathComponent("keys.sqlite").path)
        let ingestor = try Ingestor(store: store)
        ingestor.recentStateSettledAt = 40
        try ingestor.store(lines: lines, groupSize: 37)
        let db = store.database
        XCTAssertGreaterThan(try db.scalarInt("SELECT min(generation) FROM state_runs") ?? 0, 3, "each family settled several times")
        for family in [StateRuns.exposurePairs, StateRuns.impressions] {
            let runs = try StateRuns(database: db, family: family)
            try runs.refresh()
            for table in runs.tables {
                let keys = try db.prepare("SELECT \(table.keyColumns.0), \(table.keyColumns.1) FROM \(table.settled)")
                var settled = 0
                while try keys.step() {
                    let first = keys.text(0) ?? "", second = keys.text(1) ?? ""
                    XCTAssertTrue(first.contains("ü") || first.contains("ペ"), first)
                    XCTAssertTrue(runs.mayBeSettled(first, second), "\(table.settled): \(first), \(second)")
                    settled += 1
                }
                XCTAssertGreaterThan(settled, 100, table.settled)
            }
        }
    }

    /// A commit settles a share of a family's recent rows, the next in key order after where
    /// the last settling stopped, wrapping round at the end: the recent run stays within its
    /// bound, the keys between the sweep's old and new position are all settled, and the sweep
    /// comes round to the first keys again.
    func testACommitSettlesTheNextKeysOfASweep() throws {
        let store = try EventStore(path: directory.appendingPathComponent("sweep.sqlite").path)
        let ingestor = try Ingestor(store: store)
        ingestor.recentStateSettledAt = 40
        let db = store.database
        let lines = Self.feedLines()
        var wraps: [String: Int] = [:]
        var swept: [String: (String, String)?] = [:]
        for start in stride(from: 0, to: lines.count, by: 23) {
            try ingestor.store(lines: Array(lines[start..<min(start + 23, lines.count)]))
            for (family, tables) in [StateRuns.exposurePairs, StateRuns.impressions] {
                let row = try db.prepare("SELECT settled, recent, swept_first, swept_second FROM state_runs WHERE family = ?")
                row.bind(family, at: 1)
                XCTAssertTrue(try row.step())
                let (settled, recent) = (row.int(0), row.int(1))
                let now = row.isNull(2) ? nil : (row.text(2) ?? "", row.text(3) ?? "")
                XCTAssertLessThanOrEqual(recent, max(40, (settled + 3) / 4), family)
                guard let before = swept[family], let after = now, before.map({ $0 != after }) ?? true else {
                    swept[family] = now
                    continue
                }
                swept[family] = now
                if let before, !(before < after) {
                    wraps[family, default: 0] += 1  // past the end and from the start again
                    continue
                }
                for table in tables {
                    let (first, second) = table.keyColumns
                    let lower = before.map { _ in "(\(first), \(second)) > (?1, ?2) AND " } ?? ""
                    let passed = try db.prepare("SELECT count(*) FROM \(table.recent) WHERE \(lower)(\(first), \(second)) <= (?3, ?4)")
                    if let before {
                        passed.bind(before.0, at: 1)
                        passed.bind(before.1, at: 2)
                    }
                    passed.bind(after.0, at: 3)
                    passed.bind(after.1, at: 4)
                    XCTAssertTrue(try passed.step())
                    XCTAssertEqual(passed.int(0), 0, "\(table.recent) keeps keys the sweep passed")
                }
            }
        }
        XCTAssertGreaterThan(wraps["exposure_pairs", default: 0], 0, "the sweep comes round")
        XCTAssertGreaterThan(wraps["impressions", default: 0], 0, "the sweep comes round")
    }

    /// The feed's lines, a store holding all of them, and the path of a store holding the first 500
    /// (settled every few commits) on which `sql` was then run (to undo a migration).
    private func partlyIngested(_ name: String, then sql: String) throws -> (lines: [String], plain: EventStore, path: String) {
        let lines = Self.feedLines()
        let plain = try EventStore(path: directory.appendingPathComponent("plain.sqlite").path)
        try Ingestor(store: plain).store(lines: lines, groupSize: 37)
        let path = directory.appendingPathComponent(name).path
        let old = try EventStore(path: path)
        let ingestor = try Ingestor(store: old)
        ingestor.recentStateSettledAt = 40
        try ingestor.store(lines: Array(lines.prefix(500)), groupSize: 37)
        try old.database.execute(sql)
        return (lines, plain, path)
    }

    /// A store of schema version 12 (no sweep position) starts its sweeps from the first key and
    /// goes on merging as before.
    func testAVersion12StoreSweepsFromTheFirstKey() throws {
        let (lines, plain, path) = try partlyIngested("v12.sqlite", then: """
            ALTER TABLE state_runs DROP COLUMN swept_first;
            ALTER TABLE state_runs DROP COLUMN swept_second;
            DELETE FROM tally_migrations WHERE identifier LIKE 'v13-%';
            """)
        let upgraded = try EventStore(path: path)
        let db = upgraded.database
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM state_runs WHERE swept_first IS NULL"), 2)
        let ingestor = try Ingestor(store: upgraded)
        ingestor.recentStateSettledAt = 40
        try ingestor.store(lines: lines, groupSize: 37)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM state_runs WHERE swept_first IS NOT NULL"), 2, "both families swept")
        XCTAssertEqual(try rows(db, feedTables), try rows(plain.database, feedTables))
    }

    /// A settling rolled back with its commit leaves no filter of settled keys behind (the next
    /// commit would read a key of the batch from the settled run, which does not hold it); a
    /// settling by another connection is read before the next batch.
    func testASettlingRolledBackOrMadeElsewhereLeavesNoStaleFilter() throws {
        let lines = Self.feedLines()
        let plain = try EventStore(path: directory.appendingPathComponent("plain.sqlite").path)
        try Ingestor(store: plain).store(lines: lines, groupSize: 37)
        let path = directory.appendingPathComponent("rollback.sqlite").path
        let store = try EventStore(path: path)
        let ingestor = try Ingestor(store: store)
        ingestor.recentStateSettledAt = 40
        try store.database.execute("""
            CREATE TRIGGER fail_settling BEFORE UPDATE OF generation ON state_runs
            BEGIN SELECT RAISE(ABORT, 'disk full'); END
            """)
        XCTAssertThrowsError(try ingestor.store(lines: Array(lines.prefix(200)), groupSize: 200))
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM exposure_firsts"), 0, "nothing of the batch is stored")
        try store.database.execute("DROP TRIGGER fail_settling")
        try ingestor.store(lines: Array(lines.prefix(300)), groupSize: 37)
        let other = try Ingestor(store: try EventStore(path: path))
        other.recentStateSettledAt = 1
        try other.store(lines: Array(lines[300..<400]), groupSize: 100)
        try ingestor.store(lines: lines, groupSize: 37)
        XCTAssertEqual(try rows(store.database, feedTables), try rows(plain.database, feedTables))
    }

    /// A store of schema version 8 (one table each) gets its runs and filters, all rows settled,
    /// and goes on deduplicating and merging as before.
    func testAStoreWithoutStateRunsSettlesWhatItHolds() throws {
        let lines = Self.feedLines()
        let plain = try EventStore(path: directory.appendingPathComponent("plain.sqlite").path)
        try Ingestor(store: plain).store(lines: lines, groupSize: 37)
        let old = try EventStore(path: directory.appendingPathComponent("v8.sqlite").path)
        try Ingestor(store: old).store(lines: Array(lines.prefix(500)), groupSize: 37)
        try undoStateRuns(old.database)
        let upgraded = try EventStore(path: old.database.path)
        let db = upgraded.database
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM exposure_firsts_recent"), 0)
        XCTAssertEqual(try db.scalarInt("SELECT settled FROM state_runs WHERE family = 'exposure_pairs'"),
                       try db.scalarInt("SELECT count(*) FROM exposure_firsts_settled"))
        try Ingestor(store: upgraded).store(lines: lines, groupSize: 37)
        XCTAssertEqual(try rows(db, feedTables), try rows(plain.database, feedTables))
    }

    /// A store of schema version 13 (`impression_exposures` and `impression_reactions` beside the
    /// slice tables, which have no reasons) gets one state per impression, filled from its events:
    /// the same rows, views and answers as a store that always had it, and it goes on
    /// deduplicating and merging as before.
    func testAVersion13StoreKeepsOneStatePerImpression() throws {
        let (lines, plain, path) = try partlyIngested("v13.sqlite", then: Self.undoOneStatePerImpression)
        let partial = try EventStore(path: directory.appendingPathComponent("partial.sqlite").path)
        try Ingestor(store: partial).store(lines: Array(lines.prefix(500)), groupSize: 37)
        let upgraded = try EventStore(path: path)
        let db = upgraded.database
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'impression_exposures_%'"), 0)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'view' AND name LIKE 'impression_%'"), 3)
        XCTAssertGreaterThan(try db.scalarInt("SELECT count(*) FROM impression_reactions WHERE reason IS NOT NULL") ?? 0, 10)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM impression_slices_recent"), 0, "filled into the settled run")
        XCTAssertEqual(try rows(db, feedTables), try rows(partial.database, feedTables))
        XCTAssertEqual(try answers(upgraded), try answers(partial))
        XCTAssertEqual(try db.scalarInt("SELECT settled FROM state_runs WHERE family = 'impressions'"),
                       try db.scalarInt("SELECT count(*) FROM impression_slices_settled"))
        let ingestor = try Ingestor(store: upgraded)
        ingestor.recentStateSettledAt = 40
        let outcomes = try ingestor.store(lines: lines, groupSize: 37)
        XCTAssertEqual(outcomes.filter { if case .duplicate = $0 { true } else { false } }.count, 500)
        XCTAssertEqual(try rows(db, feedTables), try rows(plain.database, feedTables))
    }
}
