import Foundation
@testable import TallyIngest
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// The two runs of stored keys (`KeyRuns`): new keys go to the recent run, which settles into
/// `event_keys` once due, and a key is a duplicate in whichever run holds it.
final class KeyRunsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func line(_ id: String) -> String {
        #"{"eventId":"\#(id)","timestamp":1700000000000,"eventName":"app_launch","sessionId":"s","userId":"u","properties":{}}"#
    }

    private func ids(_ range: Range<Int>) -> [String] {
        range.map { String(format: "%08x-1006-4f24-9bda-7a2f7740b644", $0) }
    }

    private func runs(_ db: Database) throws -> [Int64] {
        [try db.scalarInt("SELECT settled FROM event_key_runs") ?? -1, try db.scalarInt("SELECT recent FROM event_key_runs") ?? -1,
         try db.scalarInt("SELECT count(*) FROM event_keys") ?? -1, try db.scalarInt("SELECT count(*) FROM event_keys_recent") ?? -1]
    }

    func testTheFilterNeverForgetsAKeyAndRulesOutMostOthers() {
        var filter = KeyFilter(capacity: 10_000)
        let keys = (0..<10_000).map { Array("key-\($0)".utf8) }
        for key in keys { key.withUnsafeBytes { filter.insert($0) } }
        XCTAssertTrue(keys.allSatisfy { $0.withUnsafeBytes(filter.mayContain) })
        let others = (0..<10_000).filter { Array("other-\($0)".utf8).withUnsafeBytes(filter.mayContain) }.count
        XCTAssertLessThan(others, 300, "false positives at full capacity")
        let copy = filter.withBytes { KeyFilter(bytes: $0) }
        XCTAssertTrue(keys.allSatisfy { $0.withUnsafeBytes(copy.mayContain) }, "the stored bits read back")
        XCTAssertFalse(Array("x".utf8).withUnsafeBytes(KeyFilter(capacity: 0).mayContain), "an empty run holds nothing")
    }

    func testRecentKeysSettleWhenDueAndStayDuplicatesInEitherRun() throws {
        let store = try EventStore(path: directory.appendingPathComponent("runs.sqlite").path)
        let ingestor = try Ingestor(store: store)
        ingestor.recentKeysSettledAt = 100
        let db = store.database
        _ = try ingestor.store(lines: ids(0..<60).map(line))
        XCTAssertEqual(try runs(db), [0, 60, 0, 60], "fewer than settleAt: the keys stay recent")
        _ = try ingestor.store(lines: ids(60..<120).map(line))
        XCTAssertEqual(try runs(db), [120, 0, 120, 0], "settled in the commit that made them due")
        _ = try ingestor.store(lines: ids(120..<170).map(line))
        XCTAssertEqual(try runs(db), [120, 50, 120, 50])
        let again = try ingestor.store(lines: ids(0..<200).map(line))
        XCTAssertEqual(again.filter { if case .duplicate = $0 { true } else { false } }.count, 170, "settled and recent keys alike")
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM observability_events"), 200)
        XCTAssertEqual(try runs(db), [120, 80, 120, 80], "80 recent keys are fewer than half of 120 settled: not due")

        let other = try Ingestor(store: try EventStore(path: directory.appendingPathComponent("runs.sqlite").path))
        other.recentKeysSettledAt = 10
        _ = try other.store(lines: ids(200..<210).map(line))
        XCTAssertEqual(try runs(db), [210, 0, 210, 0], "another connection settled, with a filter sized anew")
        let last = try ingestor.store(lines: ids(205..<215).map(line))
        XCTAssertEqual(last.filter { if case .duplicate = $0 { true } else { false } }.count, 5,
                       "the first connection reads the other's filter before it claims")
    }

    func testASettlingThatIsRolledBackLeavesNoStaleFilter() throws {
        let path = directory.appendingPathComponent("rollback.sqlite").path
        let store = try EventStore(path: path)
        let ingestor = try Ingestor(store: store)
        ingestor.recentKeysSettledAt = 10
        try store.database.execute("""
            CREATE TRIGGER fail_settling BEFORE UPDATE OF generation ON event_key_runs
            BEGIN SELECT RAISE(ABORT, 'disk full'); END
            """)
        XCTAssertThrowsError(try ingestor.store(lines: ids(0..<20).map(line)))
        XCTAssertEqual(try runs(store.database), [0, 0, 0, 0], "nothing of the batch is stored")
        try store.database.execute("DROP TRIGGER fail_settling")
        let outcomes = try ingestor.store(lines: ids(0..<20).map(line))
        XCTAssertTrue(outcomes.allSatisfy { if case .accepted = $0 { true } else { false } },
                      "the keys of the rolled-back batch are not taken for settled")
        XCTAssertEqual(try runs(store.database), [20, 0, 20, 0])
    }
}
