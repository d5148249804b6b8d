import CSQLite
import Foundation
import TallyQuery
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// The exposure counts under the feed filters are added up from the rows kept per slice
/// (`exposures_slices.sql`); these tests hold them to what the events give
/// (`exposures_scan.sql`) under every filter and grouping, however the events arrive.
final class ExposureSliceTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-exposure-slices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Exposure events of 240 (page instance, item) pairs of 4 users, 1 to 5 events a pair, in
    /// random order (so an earlier event of a pair often arrives after a later one): most keep to
    /// one local date, platform and app version; one event in four moves one of them (a date
    /// across midnight or another zone, no platform, another version) or its page, model or
    /// position; some events share their pair's timestamp (the event id decides), and some lines
    /// are sent twice.
    private func exposureLines(seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        let day: Int64 = 86_400_000, start: Int64 = 1_790_000_000_000
        var lines: [String] = []
        for i in 0..<240 {
            let user = "u\(i % 4)", pageInstance = "p\(i / 3)", item = "i\(i % 7)"
            var ts = start + Int64(rng.next() % 12) * day + Int64(rng.next() % UInt64(day))
            var zone = pick([0, 540, -300]), platform: String? = pick(["ios", "android"])
            var version: String? = pick(["1.0", "2.0"]), page: String? = pick(["home", "explore"])
            var model: String? = pick(["rec-a", "rec-b"]), position: Int? = Int(rng.next() % 4)
            for e in 0..<Int(1 + rng.next() % 5) {
                if rng.next() % 4 == 0 {
                    switch rng.next() % 7 {
                    case 0: ts += day / 2
                    case 1: zone = pick([0, 540, -300, 840])
                    case 2: platform = pick(["ios", nil])
                    case 3: version = pick(["1.0", "2.0", nil])
                    case 4: page = pick(["home", "explore", nil])
                    case 5: model = pick(["rec-a", "rec-b", nil])
                    default: position = pick([0, 1, nil])
                    }
                }
                if rng.next() % 6 != 0 { ts += Int64(rng.next() % 600_000) }
                var fields = #""userId":"\#(user)","clientTimezoneOffsetMinutes":\#(zone)"#
                if let platform { fields += #","platform":"\#(platform)""# }
                if let version { fields += #","appVersion":"\#(version)""# }
                if let page { fields += #","pageId":"\#(page)""# }
                if let model { fields += #","modelInfo":"\#(model)""# }
                if let position { fields += #","feedPosition":\#(position)"# }
                let line = #"{"eventId":"x\#(i)-\#(e)","eventType":"exposure",\#(fields),"pageInstanceId":"\#(pageInstance)","itemId":"\#(item)","clientTimestampMs":\#(ts)}"#
                lines.append(line)
                if rng.next() % 10 == 0 { lines.append(line) }
            }
        }
        for i in stride(from: lines.count - 1, to: 0, by: -1) {
            lines.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        return lines
    }

    /// A store of `exposureLines(seed:)`: its first half stored 29 records to a commit, so that
    /// most pairs are merged with what an earlier commit stored, the rest in one more ingest.
    private func exposureStore(_ name: String, seed: UInt64 = 11, groupSize: Int = 29) throws -> EventStore {
        let store = try EventStore(path: directory.appendingPathComponent(name).path)
        let lines = exposureLines(seed: seed)
        try Ingestor(store: store).store(lines: Array(lines[..<(lines.count / 2)]), groupSize: groupSize)
        try Ingestor(store: store).store(lines: Array(lines[(lines.count / 2)...]), groupSize: groupSize)
        return store
    }

    /// The filters tried: windows of one and several days, either bound, a platform, an app
    /// version, and mixed.
    private func filters() throws -> [FeedFilter] {
        var filters: [FeedFilter] = []
        let dates: [String?] = [nil, "2026-09-22", "2026-09-24", "2026-09-27", "2026-10-01"]
        for from in dates {
            for to in dates {
                filters.append(try FeedFilter.parse(from: from, to: to, platform: nil, appVersion: nil))
            }
        }
        for platform in [nil, "ios", "android"] {
            for version in [nil, "1.0", "2.0"] {
                filters.append(try FeedFilter.parse(from: "2026-09-24", to: nil, platform: platform, appVersion: version))
                filters.append(try FeedFilter.parse(from: nil, to: nil, platform: platform, appVersion: version))
            }
        }
        return filters.filter { !$0.isEmpty }
    }

    /// Every row of the tables of the filtered exposure counts, sorted.
    private func sliceRows(_ db: Database) throws -> [String] {
        try ["exposure_slices", "spanning_exposure_slices"].flatMap { table in
            try db.prepare("SELECT '\(table)', * FROM \(table)").allRows().map { "\($0)" }
        }.sorted()
    }

    func testTheSliceRowsGiveWhatTheEventsGiveUnderEveryFilterAndGrouping() throws {
        for seed: UInt64 in [11, 12, 13] {
            let store = try exposureStore("slices-\(seed).sqlite", seed: seed)
            let db = store.database
            XCTAssertGreaterThan(try db.scalarInt("SELECT count(DISTINCT page_instance_id || ' ' || item_id) FROM spanning_exposure_slices") ?? 0,
                                 20, "pairs with events in several slices")
            XCTAssertGreaterThan(try db.scalarInt("SELECT sum(exposures) FROM exposure_slices") ?? 0, 60, "pairs with one slice")
            XCTAssertGreaterThan(try db.scalarInt("SELECT sum(duplicates) FROM exposure_slices") ?? 0, 20, "their further events")
            let reports = SQLiteReports(store: store)
            for filter in try filters() {
                for grouping in ExposureGrouping.allCases {
                    let parameters = filter.parameters.merging(["by": .text(grouping.rawValue), "user": .null]) { $1 }
                    XCTAssertEqual(try reports.exposures(by: grouping, filter: filter).rows,
                                   try reports.savedRows("exposures_scan", parameters: parameters), "seed \(seed), \(parameters)")
                }
            }
        }
    }

    func testTheFilteredReportReadsTheSlices() throws {
        let store = try exposureStore("report.sqlite")
        let reports = SQLiteReports(store: store)
        let filter = try FeedFilter.parse(from: "2026-09-24", to: "2026-09-27", platform: "ios", appVersion: nil)
        XCTAssertFalse(try reports.exposures(by: .model, filter: filter).rows.isEmpty)
        try store.database.execute("DELETE FROM exposure_slices; DELETE FROM spanning_exposure_slices;")
        XCTAssertTrue(try reports.exposures(by: .model, filter: filter).rows.isEmpty)
    }

    /// The same rows whether the events come in one commit, in many, or in many with the
    /// stored pairs settled every few commits (read back from the settled run).
    func testTheRowsDoNotDependOnHowTheEventsWereBatched() throws {
        let apart = try exposureStore("apart.sqlite")
        let together = try EventStore(path: directory.appendingPathComponent("together.sqlite").path)
        try Ingestor(store: together).store(lines: exposureLines(seed: 11))
        XCTAssertEqual(try sliceRows(apart.database), try sliceRows(together.database))
        let settling = try EventStore(path: directory.appendingPathComponent("settling.sqlite").path)
        let ingestor = try Ingestor(store: settling)
        ingestor.recentStateSettledAt = 40
        try ingestor.store(lines: exposureLines(seed: 11), groupSize: 29)
        XCTAssertGreaterThan(try settling.database.scalarInt("SELECT count(*) FROM exposure_firsts_settled") ?? 0, 100)
        XCTAssertEqual(try sliceRows(settling.database), try sliceRows(together.database))
    }

    /// An earlier event of a stored pair of one slice finds the pair's slice in `exposure_firsts`:
    /// the ingest steps through no table (reading the pair's first event back from
    /// `exposure_events`, which has no index on the event id, was a pass over every exposure).
    func testALateEventOfAStoredPairReadsNoWholeTable() throws {
        let store = try EventStore(path: directory.appendingPathComponent("late.sqlite").path)
        func exposure(_ id: String, pair: Int, ts: Int64) -> String {
            #"{"eventId":"\#(id)","eventType":"exposure","userId":"u1","platform":"ios","appVersion":"2.0","pageId":"home","pageInstanceId":"p\#(pair)","itemId":"i\#(pair)","clientTimestampMs":\#(ts),"clientTimezoneOffsetMinutes":0}"#
        }
        let start: Int64 = 1_790_000_000_000
        try Ingestor(store: store).store(lines: (0..<200).map { exposure("later-\($0)", pair: $0, ts: start + 60_000) })
        let before = try sliceRows(store.database)
        let ingestor = try Ingestor(store: store)
        try ingestor.store(lines: (0..<5).map { exposure("earlier-\($0)", pair: $0, ts: start) })
        var scanned: Int32 = 0
        var statement = sqlite3_next_stmt(store.database.handle, nil)
        while let current = statement {
            scanned += sqlite3_stmt_status(current, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0)
            statement = sqlite3_next_stmt(store.database.handle, current)
        }
        withExtendedLifetime(ingestor) {
            XCTAssertEqual(scanned, 0, "steps of whole-table passes while storing 5 earlier events of stored pairs")
        }
        XCTAssertEqual(try store.database.scalarInt("SELECT sum(duplicates) FROM exposure_slices"), 5)
        XCTAssertEqual(try sliceRows(store.database).count, before.count)
    }

    /// Takes `db` back to schema version 9: no exposure slices, no platform and app version in
    /// `exposure_firsts`.
    static func undoExposureSlices(_ db: Database) throws {
        try db.execute("""
            DROP VIEW exposure_firsts; DROP TABLE exposure_slices; DROP TABLE spanning_exposure_slices;
            ALTER TABLE exposure_firsts_settled DROP COLUMN platform; ALTER TABLE exposure_firsts_settled DROP COLUMN app_version;
            ALTER TABLE exposure_firsts_recent DROP COLUMN platform; ALTER TABLE exposure_firsts_recent DROP COLUMN app_version;
            CREATE VIEW exposure_firsts AS SELECT * FROM exposure_firsts_settled UNION ALL SELECT * FROM exposure_firsts_recent;
            DELETE FROM tally_migrations WHERE identifier LIKE 'v10-%';
            """)
    }

    func testAStoreWithoutTheSliceRowsFillsThemFromItsEvents() throws {
        let store = try exposureStore("v7.sqlite")
        let ingested = try sliceRows(store.database)
        let pairs = try store.database.prepare("SELECT * FROM exposure_firsts ORDER BY page_instance_id, item_id").allRows()
        XCTAssertFalse(ingested.isEmpty)
        XCTAssertGreaterThan(try store.database.scalarInt("SELECT count(*) FROM exposure_firsts WHERE platform IS NOT NULL") ?? 0, 100)
        try Self.undoExposureSlices(store.database)
        let upgraded = try EventStore(path: store.database.path).database
        XCTAssertEqual(try sliceRows(upgraded), ingested)
        XCTAssertEqual(try upgraded.prepare("SELECT * FROM exposure_firsts ORDER BY page_instance_id, item_id").allRows(), pairs)
    }
}
