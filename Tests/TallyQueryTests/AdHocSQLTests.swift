import Foundation
import TallyQuery
import TallySQLite
import TallySupport
import XCTest

/// Ad hoc SQL (`report sql`, `report query`, `GET /sql`) cannot run away, cannot read outside
/// the store and cannot leave anything behind on its connection.
final class AdHocSQLTests: XCTestCase {
    private typealias F = StoreFixture
    private static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"

    func testARunawayStatementStopsAtItsTimeLimit() throws {
        let reports = SQLiteReports(store: try F([F.reading("a", ts: 1, delta: 3)]).store)
        let interrupter = StatementInterrupter(timeLimit: .milliseconds(200))
        XCTAssertThrowsError(try reports.adHoc(Self.endless, interrupter: interrupter)) { error in
            XCTAssertEqual((error as? StatementInterrupted)?.cause, .timeLimit(.milliseconds(200)))
            XCTAssertTrue("\(error)".contains("0.2 s limit (--sql-timeout)"), "\(error)")
        }
        XCTAssertEqual(try reports.adHoc("SELECT count(*) FROM reading_events").rows, [[.int(1)]], "the connection still answers")
    }

    /// One `upper()` of a long string is one VM step, so the time limit alone cannot bound it:
    /// no value may be longer than `--sql-max-bytes`, and no result more bytes or rows.
    func testAValueOrAResultOverItsSizeLimitStopsTheStatement() throws {
        let reports = SQLiteReports(store: try F([F.reading("a", ts: 1, delta: 3)]).store)
        let limited = { StatementInterrupter(timeLimit: .seconds(600), limits: AdHocLimits(maxBytes: 1 << 20, maxRows: 1000)) }
        let tooLarge = [
            "WITH RECURSIVE c(i, x) AS (SELECT 0, hex(zeroblob(5000000)) UNION ALL "
                + "SELECT i + 1, CASE WHEN i % 2 THEN upper(x) ELSE lower(x) END FROM c WHERE i < 3) SELECT max(length(x)) FROM c",
            "SELECT zeroblob(2000000)",
            "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 99) SELECT i, zeroblob(20000) FROM c",
        ]
        for sql in tooLarge {
            XCTAssertThrowsError(try reports.adHoc(sql, interrupter: limited()), sql) { error in
                XCTAssertEqual((error as? StatementInterrupted)?.cause, .bytes(1 << 20), "\(error)")
                XCTAssertTrue("\(error)".contains("1048576-byte limit (--sql-max-bytes)"), "\(error)")
            }
        }
        XCTAssertThrowsError(try reports.adHoc("WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 5000) SELECT i FROM c",
                                               interrupter: limited())) { error in
            XCTAssertEqual((error as? StatementInterrupted)?.cause, .rows(1000), "\(error)")
            XCTAssertTrue("\(error)".contains("1000-row limit (--sql-max-rows)"), "\(error)")
        }
        XCTAssertEqual(try reports.adHoc("SELECT length(zeroblob(1000))", interrupter: limited()).rows, [[.int(1000)]])
        XCTAssertEqual(try reports.adHoc("SELECT length(zeroblob(2000000))").rows, [[.int(2_000_000)]], "the limit ends with its statement")
    }

    func testCancelStopsARunningStatementFromAnotherThread() throws {
        let reports = SQLiteReports(store: try F([]).store)
        let interrupter = StatementInterrupter(timeLimit: nil)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { interrupter.cancel() }
        XCTAssertThrowsError(try reports.adHoc(Self.endless, interrupter: interrupter)) { error in
            XCTAssertEqual((error as? StatementInterrupted)?.cause, .cancelled)
        }
        XCTAssertThrowsError(try reports.adHoc("SELECT 1", interrupter: interrupter), "a cancelled interrupter refuses the next statement")
    }

    func testAttachIsRefusedAlikeForFilesThatExistAndThatDoNot() throws {
        let fixture = try F([F.reading("a", ts: 1, delta: 3)])
        let reports = SQLiteReports(store: fixture.store)
        let other = fixture.directory.appendingPathComponent("other.sqlite").path
        _ = try EventStore(path: other)
        var messages: [String] = []
        for path in [other, fixture.directory.appendingPathComponent("missing.sqlite").path, "/etc/passwd"] {
            XCTAssertThrowsError(try reports.adHoc("ATTACH DATABASE '\(path)' AS x")) { error in
                XCTAssertTrue(error is AdHocRefused, "\(error)")
                messages.append("\(error)")
            }
        }
        XCTAssertEqual(Set(messages).count, 1, "\(messages)")
        XCTAssertThrowsError(try reports.adHoc("SELECT * FROM x.sqlite_master"))
        // `main` and SQLite's own `temp` (which the ingest may already have opened) are not attachments.
        XCTAssertEqual(try fixture.store.database.scalarInt("SELECT count(*) FROM pragma_database_list WHERE name NOT IN ('main', 'temp')"), 0,
                       "nothing stays attached")
    }

    func testPragmasThatSetAndSideEffectFunctionsAndTransactionsAreRefused() throws {
        let fixture = try F([F.reading("a", ts: 1, delta: 3)])
        let reports = SQLiteReports(store: fixture.store)
        let cacheSize = try fixture.store.database.scalarInt("PRAGMA cache_size")
        for sql in ["PRAGMA cache_size = 1", "PRAGMA busy_timeout = 1", "PRAGMA writable_schema = 1", "PRAGMA query_only = 0",
                    "PRAGMA database_list", "SELECT * FROM pragma_database_list", "PRAGMA main.user_version = 7",
                    "SELECT load_extension('/tmp/x.so')", "BEGIN", "SAVEPOINT s", "CREATE TEMP TABLE t(x)", "VACUUM INTO '/tmp/copy.sqlite'",
                    "DELETE FROM reading_events"] {
            XCTAssertThrowsError(try reports.adHoc(sql), sql) { error in
                XCTAssertTrue(error is AdHocRefused || error is QueryError, "\(sql): \(error)")
            }
        }
        XCTAssertEqual(try fixture.store.database.scalarInt("PRAGMA cache_size"), cacheSize, "no setting persists")
        XCTAssertEqual(try fixture.store.database.scalarInt("PRAGMA user_version"), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/copy.sqlite"))
        XCTAssertEqual(try reports.adHoc("SELECT count(*) FROM reading_events").rows, [[.int(1)]], "no transaction was left open")
    }

    func testReadsOfTheStoresOwnSchemaStillWork() throws {
        let reports = SQLiteReports(store: try F([F.reading("a", ts: 1, delta: 3)]).store)
        XCTAssertEqual(try reports.adHoc("SELECT sum(active_seconds) FROM reading_events").rows, [[.int(3)]])
        XCTAssertFalse(try reports.adHoc("PRAGMA table_info(reading_events)").rows.isEmpty)
        XCTAssertFalse(try reports.adHoc("SELECT name FROM pragma_table_info('reading_events')").rows.isEmpty)
        XCTAssertFalse(try reports.adHoc("SELECT name FROM sqlite_master WHERE type = 'table'").rows.isEmpty)
        XCTAssertEqual(try reports.adHoc("PRAGMA user_version").rows, [[.int(0)]])
        XCTAssertEqual(try reports.adHoc("SELECT json_extract('{\"a\":1}', '$.a'), upper('x'), abs(-2)").rows, [[.int(1), .text("X"), .int(2)]])
        XCTAssertEqual(try reports.adHoc(Self.endless.replacingOccurrences(of: "FROM c", with: "FROM c WHERE x < 10 LIMIT 5")).rows.count, 1)
    }

    /// An error on a damaged store names the saved query, keeps SQLite's message and never
    /// prints the query's SQL.
    func testAnErrorOnADamagedStoreNamesTheQueryNotItsSQL() throws {
        let lines = (0..<4000).map { F.reading("r\($0)", user: "u\($0 % 50)", material: "m\($0 % 300)", ts: F.ms(days: -($0 % 40)), delta: 5) }
        let fixture = try F(lines, batchSize: 500)
        let path = fixture.store.database.path
        try fixture.store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        let pageSize = 16_384
        let kept = try fixture.store.database.prepare("SELECT rootpage FROM sqlite_master WHERE tbl_name = 'tally_migrations'").allRows()
            .compactMap { row -> Int? in if case .int(let page) = row.first { Int(page) } else { nil } }
        for page in stride(from: pageSize, to: size, by: pageSize) where !kept.contains(page / pageSize + 1) {
            try handle.seek(toOffset: UInt64(page + 100))
            handle.write(Data(repeating: 0xA5, count: 2000))
        }
        try handle.close()
        let reports = SQLiteReports(store: try EventStore(readingAt: path))
        XCTAssertThrowsError(try reports.summary(ReportContext(user: nil, nowMs: F.ms(), timezoneOffsetMinutes: nil))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("while running queries/"), text)
            XCTAssertTrue(text.contains("malformed") || text.contains("corrupt"), text)
            XCTAssertFalse(text.contains("SELECT"), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }

    func testUnnamedSQLIsShownAsOneShortLine() {
        let sql = "  SELECT a,\n       b\n  FROM " + String(repeating: "x", count: 500)
        let error = DatabaseError(code: 1, message: "no such column: a", sql: sql)
        XCTAssertEqual(error.description, "SQLite error 1: no such column: a - while executing `SELECT a, …`")
        XCTAssertEqual(DatabaseError(code: 11, message: "database disk image is malformed", sql: sql, statementName: "queries/x.sql").description,
                       "SQLite error 11: database disk image is malformed - while running queries/x.sql")
    }
}
