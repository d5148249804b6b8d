import Foundation
import TallyEvents
@testable import TallyIngest
@testable import TallySQLite
import TallyTestSupport
import XCTest

final class EventKeyTableTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func observability(_ id: String, ts: Int64 = 1_700_000_000_000) -> String {
        #"{"eventId":"\#(id)","timestamp":\#(ts),"eventName":"app_launch","sessionId":"s","userId":"u","properties":{}}"#
    }

    private func add(_ ingestor: Ingestor, _ lines: [String]) throws -> [IngestOutcome] {
        try ingestor.store(lines: lines, groupSize: ingestor.batchSize)
    }

    func testCanonicalUUIDKeysTake17BytesAndOtherKeysKeepTheirText() throws {
        let lower = "019aa3d6-cde8-75b3-8d4d-1045d91fe89b"
        let compact = EventKey.withCompact(lower, family: EventKey.reading) { Array($0) }
        XCTAssertEqual(compact, [1, 0x01, 0x9a, 0xa3, 0xd6, 0xcd, 0xe8, 0x75, 0xb3, 0x8d, 0x4d, 0x10, 0x45, 0xd9, 0x1f, 0xe8, 0x9b])
        let upper = EventKey.withCompact(lower.uppercased(), family: EventKey.reading) { Array($0) }
        XCTAssertEqual(upper, [0x81] + Array(lower.uppercased().utf8))
        XCTAssertEqual(EventKey.withCompact("k-1", family: EventKey.feedback) { Array($0) }, [0x82] + Array("k-1".utf8))
        XCTAssertNil("019aa3d6-cde8-75b3-8d4d-1045d91fe89g".utf8.withContiguousStorageIfAvailable(EventKey.uuidBytes) ?? nil)
    }

    func testKeysDedupAsTextWithinAFamilyOnly() throws {
        let store = try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
        let ingestor = try Ingestor(store: store)
        let id = "259939de-1006-4f24-9bda-7a2f7740b644"
        let reading = #"{"eventId":"\#(id)","userId":"u","materialId":"m","eventType":"heartbeat","clientTimestampMs":1700000000000,"activeSecondsDelta":15}"#
        let outcomes = try add(ingestor, [observability(id), observability(id.uppercased()), observability(id, ts: 1_700_000_000_001),
                                          reading, observability("plain")])
        XCTAssertEqual(outcomes, [.accepted(key: id), .accepted(key: id.uppercased()), .duplicate(key: id), .accepted(key: id),
                                  .accepted(key: "plain")])
        let keys = "(SELECT key FROM event_keys UNION ALL SELECT key FROM event_keys_recent)"
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM \(keys)"), 4)
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM \(keys) WHERE length(key) = 17"), 2)
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM observability_events"), 3)
    }

    func testAVersionOneStoreUpgradesAndKeepsDedupingItsEvents() throws {
        let path = directory.appendingPathComponent("v1.sqlite").path
        do {
            let db = try Database(path: path)
            try db.execute("PRAGMA page_size = 16384; PRAGMA journal_mode = WAL;")
            try Migrator(migrations: [TallySchema.migrator.migrations[0]]).migrate(db)
            try db.execute("""
                INSERT INTO observability_events (event_id, user_id, ts_ms, tz_minutes, local_date, event_name, session_id, properties)
                VALUES ('259939de-1006-4f24-9bda-7a2f7740b644', 'u', 1700000000000, 0, '2023-11-14', 'app_launch', 's', '{}'),
                       ('old-1', 'u', 1700000000000, 0, '2023-11-14', 'app_launch', 's', '{}');
                INSERT INTO feedback_events (id, user_id, ts_ms, tz_minutes, local_date, feedback_type, impression_id, model_info,
                    feed_position, context) VALUES ('old-1', 'u', 1700000000000, 0, '2023-11-14', 'like', 'i', 'm', 1, '{}');
                """)
        }
        let store = try EventStore(path: path)
        let db = store.database
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM event_keys"), 3)
        let migrations = Int64(TallySchema.migrator.migrations.count)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM tally_migrations"), migrations)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%WITHOUT ROWID%' AND name LIKE '%_events'"), 0)
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'observability_events_name'"), 1)
        let ingestor = try Ingestor(store: store)
        let outcomes = try add(ingestor, [observability("259939de-1006-4f24-9bda-7a2f7740b644"), observability("old-1"), observability("new-1")])
        XCTAssertEqual(outcomes, [.duplicate(key: "259939de-1006-4f24-9bda-7a2f7740b644"), .duplicate(key: "old-1"), .accepted(key: "new-1")])
        XCTAssertEqual(try db.scalarInt("SELECT count(*) FROM observability_events"), 3)
    }

    /// A chunk claims its keys in key order, not input order: the first of equal keys in the
    /// input must still win, whether the chunk is claimed at once or record by record.
    func testAChunkKeepsTheFirstOfEqualKeysWhateverTheirKeyOrder() throws {
        let late = "ffffffff-1006-4f24-9bda-7a2f7740b644", early = "00000000-1006-4f24-9bda-7a2f7740b644"
        let lines = [observability(late, ts: 1_700_000_000_001), observability(early, ts: 1_700_000_000_002), "{",
                     observability(late, ts: 1_700_000_000_003), observability(early, ts: 1_700_000_000_004),
                     observability("plain", ts: 1_700_000_000_005), observability("plain", ts: 1_700_000_000_006)]
        for batchSize in [20_000, 3] {
            let store = try EventStore(path: directory.appendingPathComponent("chunk-\(batchSize).sqlite").path)
            let ingestor = try Ingestor(store: store, batchSize: batchSize)
            let reader = try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "t.ndjson")
            var outcomes: [String] = []
            for outcome in try ingestor.store(group: [try ValidatedChunk(reading: reader, label: "t")])[0] {
                switch outcome {
                case .accepted(let key): outcomes.append("accepted \(key)")
                case .duplicate(let key): outcomes.append("duplicate \(key)")
                case .rejected: outcomes.append("rejected")
                }
            }
            XCTAssertEqual(outcomes, ["accepted \(late)", "accepted \(early)", "rejected", "duplicate \(late)", "duplicate \(early)",
                                      "accepted plain", "duplicate plain"], "batch size \(batchSize)")
            XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM observability_events"), 3)
            XCTAssertEqual(try store.database.scalarInt("SELECT sum(ts_ms - 1700000000000) FROM observability_events"), 1 + 2 + 5,
                           "batch size \(batchSize): the first of each key is stored")
        }
    }
}
