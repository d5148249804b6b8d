import Foundation
import TallyIngest
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// The member rows behind `uniqueItems` / `uniqueUsers`: stored once per member, remembered by
/// the writer, and still exact when another connection changes them or an old store upgrades.
final class ExposureMemberTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-members-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private static let day: Int64 = 86_400_000
    private static let start: Int64 = 1_795_176_000_000

    private func exposure(_ id: String, pageInstance: String, item: String, ts: Int64) -> String {
        #"{"eventId":"\#(id)","eventType":"exposure","userId":"u","pageId":"home","pageInstanceId":"\#(pageInstance)","itemId":"\#(item)","modelInfo":"v1","feedPosition":0,"clientTimestampMs":\#(ts)}"#
    }

    private func add(_ ingestor: Ingestor, _ lines: [String]) throws {
        try ingestor.store(lines: lines, groupSize: ingestor.batchSize)
    }

    /// (exposures, unique items, unique users) of the day group `date`.
    private func day(_ db: Database, _ date: String) throws -> [Int64] {
        let s = try db.prepare("SELECT exposures, unique_items, unique_users FROM exposure_groups WHERE dimension = 'day' AND group_value = ?")
        try s.bind([.text(date)])
        guard try s.step() else { return [0, 0, 0] }
        return [s.int64(0), s.int64(1), s.int64(2)]
    }

    func testAMemberRemovedThroughAnotherConnectionIsCountedAgain() throws {
        let path = directory.appendingPathComponent("t.sqlite").path
        let first = try EventStore(path: path)
        let second = try EventStore(path: path)
        let a = try Ingestor(store: first)
        let b = try Ingestor(store: second)
        let date = "2026-11-20", earlier = "2026-11-19"
        try add(a, [exposure("e1", pageInstance: "p1", item: "i1", ts: Self.start)])
        XCTAssertEqual(try day(first.database, date), [1, 1, 1])
        // An earlier exposure of the same pair, through the other connection, moves it a day back:
        // the later day holds neither the item nor the user any more.
        try add(b, [exposure("e0", pageInstance: "p1", item: "i1", ts: Self.start - Self.day)])
        XCTAssertEqual(try day(first.database, date), [0, 0, 0])
        XCTAssertEqual(try day(first.database, earlier), [1, 1, 1])
        // The first ingestor stored (day, i1) and (day, u) itself; they are gone, so a new pair
        // of that day brings them back.
        try add(a, [exposure("e2", pageInstance: "p2", item: "i1", ts: Self.start + 1)])
        XCTAssertEqual(try day(first.database, date), [1, 1, 1])
        XCTAssertEqual(try first.database.scalarInt("""
            SELECT count(*) FROM exposure_group_members WHERE dimension = 'day' AND group_value = '\(date)'
            """), 2)
    }

    func testAMovedPairLeavesOnlyTheMembersNoOtherPairHolds() throws {
        let store = try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
        let ingestor = try Ingestor(store: store)
        let date = "2026-11-20", earlier = "2026-11-19"
        try add(ingestor, [exposure("e1", pageInstance: "p1", item: "i1", ts: Self.start),
                           exposure("e2", pageInstance: "p2", item: "i2", ts: Self.start)])
        XCTAssertEqual(try day(store.database, date), [2, 2, 1])
        try add(ingestor, [exposure("e0", pageInstance: "p1", item: "i1", ts: Self.start - Self.day)])
        // p2 still holds the user on the later day; i1 has left it.
        XCTAssertEqual(try day(store.database, date), [1, 1, 1])
        XCTAssertEqual(try day(store.database, earlier), [1, 1, 1])
    }

    func testOnlyAPairThatMovesReadsThePairsAgain() throws {
        let store = try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
        let ingestor = try Ingestor(store: store)
        try add(ingestor, [exposure("e1", pageInstance: "p1", item: "i1", ts: Self.start)])
        // A later copy in a later batch: a duplicate, the pair stays in its groups.
        try add(ingestor, [exposure("e2", pageInstance: "p1", item: "i1", ts: Self.start + 1)])
        XCTAssertEqual(ingestor.passesOverExposurePairs, 0)
        XCTAssertEqual(try day(store.database, "2026-11-20"), [1, 1, 1])
        // An earlier copy moves it to the day before.
        try add(ingestor, [exposure("e0", pageInstance: "p1", item: "i1", ts: Self.start - Self.day)])
        XCTAssertEqual(ingestor.passesOverExposurePairs, 1)
        XCTAssertEqual(try day(store.database, "2026-11-20"), [0, 0, 0])
        XCTAssertEqual(try day(store.database, "2026-11-19"), [1, 1, 1])
    }

    func testAVersionTwoStoreUpgradesItsMemberRows() throws {
        let path = directory.appendingPathComponent("v2.sqlite").path
        do {
            let db = try Database(path: path)
            try db.execute("PRAGMA page_size = 16384; PRAGMA journal_mode = WAL;")
            try Migrator(migrations: Array(TallySchema.migrator.migrations.prefix(2))).migrate(db)
        }
        do {
            let store = try EventStore(path: path)
            let ingestor = try Ingestor(store: store)
            try add(ingestor, [exposure("e1", pageInstance: "p1", item: "i1", ts: Self.start)])
        }
        // Written as version 2 would have: the same rows with a count of pairs.
        do {
            let db = try Database(path: path)
            try db.execute("""
                DELETE FROM tally_migrations WHERE identifier LIKE 'v3-%';
                ALTER TABLE exposure_group_members ADD COLUMN pairs INTEGER NOT NULL DEFAULT 1;
                """)
        }
        let store = try EventStore(path: path)
        let db = store.database
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM pragma_table_info('exposure_group_members') WHERE name = 'pairs'"), 0)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM exposure_group_members"), 9)
        let ingestor = try Ingestor(store: store)
        try add(ingestor, [exposure("e2", pageInstance: "p2", item: "i2", ts: Self.start)])
        XCTAssertEqual(try day(db, "2026-11-20"), [2, 2, 1])
    }
}
