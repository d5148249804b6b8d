import Foundation
import TallyEvents
import TallyIngest
@testable import TallySQLite
import TallySupport
import TallyTestSupport
import XCTest

final class IngestorTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func store() throws -> EventStore {
        try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
    }

    private func reading(_ id: String, user: String = "u", material: String = "m", type: String = "heartbeat",
                         ts: Int64, delta: Int = 15, tz: Int = 0, extra: String = "") -> String {
        #"{"eventId":"\#(id)","userId":"\#(user)","materialId":"\#(material)","eventType":"\#(type)","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(delta),"clientTimezoneOffsetMinutes":\#(tz)\#(extra)}"#
    }

    @discardableResult
    private func add(_ ingestor: Ingestor, _ lines: [String], file: String = "t.ndjson") throws -> [IngestOutcome] {
        try ingestor.store(lines: lines, file: file, groupSize: ingestor.batchSize)
    }

    func testDuplicateKeysKeepTheFirstStoredEvent() throws {
        let store = try store()
        let ingestor = try Ingestor(store: store)
        let outcomes = try add(ingestor, [reading("a", ts: 1_000, delta: 10), reading("a", ts: 1_000, delta: 999)])
        XCTAssertEqual(outcomes, [.accepted(key: "a"), .duplicate(key: "a")])
        XCTAssertEqual(ingestor.counts, IngestCounts(accepted: 1, duplicates: 1, rejected: 0))
        XCTAssertEqual(try store.database.scalarInt("SELECT active_seconds FROM reading_events"), 10)
        XCTAssertEqual(try store.database.scalarInt("SELECT sum(active_seconds) FROM reading_daily"), 10)
    }

    func testRollupsMatchTheEventsTheyAreBuiltFrom() throws {
        let store = try store()
        let ingestor = try Ingestor(store: store, batchSize: 3)
        var lines: [String] = []
        for i in 0..<50 {
            lines.append(reading("e\(i)", user: "u\(i % 3)", material: "m\(i % 4)", ts: 1_700_000_000_000 + Int64(i) * 3_600_000,
                                 delta: i % 7, tz: [480, -300, 0][i % 3]))
        }
        try add(ingestor, lines + lines.prefix(10))
        let db = store.database
        XCTAssertEqual(ingestor.counts, IngestCounts(accepted: 50, duplicates: 10, rejected: 0))
        let raw = "SELECT user_id, local_date, material_id, sum(active_seconds), count(*) FROM reading_events GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
        let rollup = "SELECT user_id, local_date, material_id, active_seconds, events FROM reading_daily ORDER BY 1, 2, 3"
        XCTAssertEqual(try db.prepare(raw).allRows(), try db.prepare(rollup).allRows())
        let all = "SELECT local_date, material_id, sum(active_seconds), count(*) FROM reading_events GROUP BY 1, 2 ORDER BY 1, 2"
        XCTAssertEqual(try db.prepare(all).allRows(), try db.prepare("SELECT * FROM reading_daily_all ORDER BY 1, 2").allRows())
    }

    func testNewestFieldsFollowTimestampThenSequenceThenKey() throws {
        let store = try store()
        let ingestor = try Ingestor(store: store, batchSize: 1)
        try add(ingestor, [
            reading("b", ts: 5_000, extra: #","sequence":2,"title":"late","position":{"page":2,"pageCount":4}"#),
            reading("a", ts: 5_000, extra: #","sequence":2,"title":"same-ts-smaller-key""#),
            reading("c", ts: 4_000, extra: #","sequence":9,"title":"early","readingTargetType":"temporary_file""#),
            reading("d", ts: 5_000, tz: 60, extra: #","sequence":1"#),
        ])
        let row = try store.database.prepare("SELECT last_key, target_type, title, position, progress FROM material_state").allRows()
        XCTAssertEqual(row, [[.text("b"), .text("knowledge_source"), .text("late"), .text(#"{"page":2,"pageCount":4}"#), .double(0.5)]])
        XCTAssertEqual(try store.database.prepare("SELECT last_key, tz_minutes FROM reading_user_state").allRows(), [[.text("b"), .int(0)]])
    }

    func testRejectedLinesAreKeptOnceAcrossReruns() throws {
        let store = try store()
        let lines = [#"{"eventId":"x","materialId":"m","eventType":"teleported","clientTimestampMs":1}"#, "garbage", reading("ok", ts: 1)]
        for _ in 0..<2 {
            let ingestor = try Ingestor(store: store)
            let outcomes = try add(ingestor, lines)
            XCTAssertEqual(ingestor.counts.rejected, 2)
            guard case .rejected(let rejection) = outcomes[0] else { return XCTFail("expected a rejection") }
            XCTAssertEqual(rejection.code, .invalidEventType)
        }
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM rejected_lines"), 2)
        XCTAssertEqual(try store.database.scalarInt("SELECT line FROM rejected_lines WHERE raw = 'garbage'"), 2)
    }

    func testRejectedLinesBeyondTheCapKeepTheirPositionAndCodeOnly() throws {
        let store = try store()
        let path = directory.appendingPathComponent("garbage.ndjson").path
        try Data((1...5).map { "junk \($0)" }.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        for _ in 0..<2 {
            let ingestor = try Ingestor(store: store)
            ingestor.rejectedLinesKeptInFull = 2
            XCTAssertEqual(try ingestor.ingest(file: path, onRejection: { _, _ in }), IngestCounts(rejected: 5))
        }
        let rows = try store.database.prepare("SELECT line, code, message <> '', raw FROM rejected_lines ORDER BY line").allRows()
        XCTAssertEqual(rows, [
            [.int(1), .text("INVALID_JSON"), .int(1), .text("junk 1")],
            [.int(2), .text("INVALID_JSON"), .int(1), .text("junk 2")],
            [.int(3), .text("INVALID_JSON"), .int(0), .text("")],
            [.int(4), .text("INVALID_JSON"), .int(0), .text("")],
            [.int(5), .text("INVALID_JSON"), .int(0), .text("")],
        ])
    }

    func testTheCapOnRejectedLinesKeptWholeStartsAgainWithEachFile() throws {
        let store = try store()
        let ingestor = try Ingestor(store: store)
        ingestor.rejectedLinesKeptInFull = 1
        for name in ["a.ndjson", "b.ndjson"] {
            let path = directory.appendingPathComponent(name).path
            try Data("junk 1\njunk 2\njunk 3".utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertEqual(try ingestor.ingest(file: path, onRejection: { _, _ in }), IngestCounts(rejected: 3))
        }
        let rows = try store.database.prepare("SELECT count(*), sum(raw <> '') FROM rejected_lines GROUP BY file ORDER BY file").allRows()
        XCTAssertEqual(rows, [[.int(3), .int(1)], [.int(3), .int(1)]])
        XCTAssertEqual(ingestor.counts.rejected, 6, "lines kept by position only are still counted")
    }

    func testATruncatedGzipKeepsEveryWholeLineBeforeTheDamage() throws {
        let store = try store()
        let lines = (0..<3000).map { reading("e\($0)", ts: 1_700_000_000_000 + Int64($0)) }
        let whole = try Gzip.compress(Array(lines.joined(separator: "\n").utf8))
        let path = directory.appendingPathComponent("cut.ndjson.gz").path
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: path))
        let ingestor = try Ingestor(store: store)
        XCTAssertThrowsError(try ingestor.ingest(file: path, onRejection: { _, _ in })) { error in
            guard case .truncatedGzip(let file, _)? = error as? EventFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, path)
        }
        let stored = Int(try store.database.scalarInt("SELECT count(*) FROM reading_events") ?? 0)
        XCTAssertGreaterThan(stored, 1000)
        XCTAssertEqual(stored, try wholeLinesInflated(path), "every line that gzip itself inflates whole is stored")
        XCTAssertEqual(stored, ingestor.counts.accepted)
        XCTAssertEqual(ingestor.counts.rejected, 0, "the cut line is not a rejected event")
    }

    func testTrailingGarbageAfterTheLastMemberKeepsEveryLineAndNamesTheDamage() throws {
        let lines = (0..<5000).map { reading("e\($0)", ts: 1_700_000_000_000 + Int64($0)) }
        let whole = try Gzip.compress(Array((lines.joined(separator: "\n") + "\n").utf8))
        for (name, tail) in [("garbage.ndjson.gz", Array("garbage\n".utf8)), ("padded.ndjson.gz", [UInt8](repeating: 0, count: 512))] {
            let store = try EventStore(path: directory.appendingPathComponent(name + ".sqlite").path)
            let path = directory.appendingPathComponent(name).path
            try Data(whole + tail).write(to: URL(fileURLWithPath: path))
            let ingestor = try Ingestor(store: store)
            XCTAssertThrowsError(try ingestor.ingest(file: path, onRejection: { _, _ in })) { error in
                XCTAssertEqual(error as? EventFileError, .trailingGarbage(file: path, offset: whole.count))
                XCTAssertTrue("\(error)".contains("after its last gzip member"), "\(error)")
            }
            XCTAssertEqual(ingestor.counts.accepted, 5000, name)
        }
    }

    func testABadChecksumKeepsEveryWholeLineBeforeIt() throws {
        let store = try store()
        let lines = (0..<60_000).map { reading("e\($0)", ts: 1_700_000_000_000 + Int64($0)) }
        var gz = try Gzip.compress(Array((lines.joined(separator: "\n") + "\n").utf8))
        gz[gz.count - 8] ^= 0xFF  // the CRC-32 in the trailer
        let path = directory.appendingPathComponent("crc.ndjson.gz").path
        try Data(gz).write(to: URL(fileURLWithPath: path))
        let ingestor = try Ingestor(store: store)
        XCTAssertThrowsError(try ingestor.ingest(file: path, onRejection: { _, _ in })) { error in
            guard case .corruptGzip(let file, _, let reason)? = error as? EventFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, path)
            XCTAssertEqual(reason, "incorrect data check")
        }
        XCTAssertEqual(ingestor.counts.accepted, 60_000, "every line inflated before the damage is stored")
    }

    func testARejectedLineKeepsABoundedPrefixAndADigestOfTheWhole() throws {
        let store = try store()
        let long = (1...20).map { "{" + String(repeating: "x", count: 1 << 20) + "\($0)" }
        let path = directory.appendingPathComponent("long.ndjson").path
        try Data((["junk 1"] + long + [reading("ok", ts: 1_700_000_000_000)]).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        let before = try store.database.scalarInt("PRAGMA page_count") ?? 0
        let ingestor = try Ingestor(store: store)
        XCTAssertEqual(try ingestor.ingest(file: path, onRejection: { _, _ in }), IngestCounts(accepted: 1, rejected: 21))
        let rows = try store.database.prepare("SELECT length(raw), raw_bytes, raw_sha256 FROM rejected_lines ORDER BY line").allRows()
        XCTAssertEqual(rows.first, [.int(6), .int(6), .text("4bad2882fc8aa3892bf7f4eaaec06481682fe4eb95d269af6333f010e8c4a33f")])
        XCTAssertEqual(rows.count, 21)
        for (row, line) in zip(rows.dropFirst(), long) {
            XCTAssertEqual(Array(row.prefix(2)), [.int(Int64(RejectedLine.prefixBytes)), .int(Int64(line.utf8.count))])
        }
        XCTAssertEqual(Set(rows.map { $0[2] }).count, 21, "lines alike in their prefix differ in their digest")
        let grown = (try store.database.scalarInt("PRAGMA page_count") ?? 0) - before
        XCTAssertLessThan(grown * (try store.database.scalarInt("PRAGMA page_size") ?? 0), 1 << 20, "the 20 MiB of rejected lines take little room")
        XCTAssertEqual(try Ingestor(store: store).ingest(file: path, onRejection: { _, _ in }), IngestCounts(duplicates: 1, rejected: 21))
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM rejected_lines"), 21, "a re-run keeps each rejected line once")
    }

    func testAVersionThreeStoreCutsItsRejectedLinesToAPrefixAndADigest() throws {
        let path = directory.appendingPathComponent("v3.sqlite").path
        let long = "{" + String(repeating: "x", count: 10_000)
        let file = directory.appendingPathComponent("old.ndjson").path
        do {
            let db = try Database(path: path)
            try Migrator(migrations: Array(TallySchema.migrator.migrations.prefix(3))).migrate(db)
            try db.execute("""
                INSERT INTO rejected_lines (file, line, code, message, raw) VALUES
                    ('\(file)', 1, 'INVALID_JSON', 'm', 'junk 1'), ('\(file)', 2, 'INVALID_JSON', 'm', '\(long)'),
                    ('\(file)', 3, 'INVALID_JSON', '', '')
                """)
        }
        let store = try EventStore(path: path)
        let rows = try store.database.prepare("SELECT length(raw), raw_bytes, raw_sha256 FROM rejected_lines ORDER BY line").allRows()
        XCTAssertEqual(rows, [
            [.int(6), .int(6), .text("4bad2882fc8aa3892bf7f4eaaec06481682fe4eb95d269af6333f010e8c4a33f")],
            [.int(Int64(RejectedLine.prefixBytes)), .int(10_001), .text(Array(long.utf8).withUnsafeBytes { SHA256.hex($0) })],
            [.int(0), .int(0), .text("")],
        ])
        try Data("junk 1\n\(long)".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try Ingestor(store: store).ingest(file: file, onRejection: { _, _ in }), IngestCounts(rejected: 2))
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM rejected_lines"), 3, "lines kept before the migration are not kept again")
    }

    func testADamagedBatchTooLongToSearchAgainIsAnErrorNotASilentSuccess() throws {
        // Thousands of objects left open: every re-reading of the rest finds the rest still
        // open, so the re-reading limit stops it and the events behind it are not read.
        let store = try store()
        let valid = (0..<100).map { reading("e\($0)", ts: 1_700_000_000_000 + Int64($0)) }
        let text = "[" + reading("first", ts: 1_700_000_000_000) + ",\n" + String(repeating: #"{"a":1,"#, count: 50_000)
            + "\n" + valid.joined(separator: ",") + "]"
        let path = directory.appendingPathComponent("damaged.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let ingestor = try Ingestor(store: store)
        XCTAssertThrowsError(try ingestor.ingest(file: path, onRejection: { _, _ in })) { error in
            guard case .unreadAfterDamage(let file, let line, let bytes)? = error as? EventFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, path)
            XCTAssertEqual(line, 2)
            XCTAssertGreaterThan(bytes, 100_000)
            XCTAssertTrue("\(error)".hasPrefix("\(path):2: a damaged batch element"), "\(error)")
        }
        XCTAssertEqual(ingestor.counts.accepted, 1, "the event before the damage is stored")
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM reading_events"), 1)
    }

    /// How many whole (newline-ended) lines `gzip -dc` inflates from a damaged file before the damage.
    private func wholeLinesInflated(_ path: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let inflated = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return inflated.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    func testAnUncommittedBatchLeavesNoTrace() throws {
        let store = try store()
        let ingestor = try Ingestor(store: store, batchSize: 100)
        let reader = try EventFileReader(bytes: Array(reading("lost", ts: 1).utf8), name: "f")
        try ingestor.store(try ValidatedChunk(reading: reader, label: "f")) { _, _ in }
        ingestor.rollback()
        for table in ["reading_events", "reading_daily", "material_state", "reading_user_state"] {
            XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM \(table)"), 0, table)
        }
    }

    func testExposureFirstsKeepTheEarliestEventsGroupAndCountTheRest() throws {
        let store = try store()
        let ingestor = try Ingestor(store: store, batchSize: 2)
        func exposure(_ id: String, ts: Int64, model: String) -> String {
            #"{"eventId":"\#(id)","eventType":"exposure","clientTimestampMs":\#(ts),"pageInstanceId":"p","itemId":"i","impressionId":"imp","modelInfo":"\#(model)","userId":"u"}"#
        }
        try add(ingestor, [exposure("2", ts: 20, model: "late"), exposure("1", ts: 10, model: "early"), exposure("3", ts: 30, model: "later")])
        XCTAssertEqual(try store.database.prepare("SELECT first_key, model_info, events FROM exposure_firsts").allRows(),
                       [[.text("1"), .text("early"), .int(3)]])
        XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM impression_exposures"), 3)
    }

    func testMigrationsAreAppliedOnce() throws {
        let path = directory.appendingPathComponent("m.sqlite").path
        _ = try EventStore(path: path)
        let again = try EventStore(path: path)
        XCTAssertEqual(try again.database.scalarInt("SELECT count(*) FROM tally_migrations"), Int64(TallySchema.migrator.migrations.count))
        XCTAssertFalse(try TallySchema.migrator.hasPendingMigrations(in: again.database))
    }

    func testReadOnlyStoreRefusesWritesAndMissingStoreSaysWhatToDo() throws {
        let path = directory.appendingPathComponent("r.sqlite").path
        XCTAssertThrowsError(try EventStore(readingAt: path)) { error in
            XCTAssertTrue("\(error)".contains("report ingest"))
        }
        _ = try EventStore(path: path)
        let reader = try EventStore(readingAt: path)
        XCTAssertThrowsError(try reader.database.execute("DELETE FROM reading_events")) { error in
            XCTAssertTrue("\(error)".contains("DELETE FROM reading_events"), "the error shows the SQL: \(error)")
        }
    }
}
