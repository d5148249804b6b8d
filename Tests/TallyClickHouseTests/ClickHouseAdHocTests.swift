import Foundation
import TallyClickHouse
import TallyQuery
import TallySQLite
import TallySupport
import XCTest

/// Ad hoc SQL on ClickHouse reaches nothing but the server's tables: no table function (a file,
/// a URL, another server), no setting, no KILL, and a runaway statement stops at its limit.
final class ClickHouseAdHocTests: XCTestCase {
    func testTableFunctionsSettingsAndKillAreRefused() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let reports = ClickHouseReports(client: client)
        let refused = [
            "SELECT * FROM file('/etc/passwd', 'CSV', 'a String')",
            "SELECT * FROM file('/no/such/file', 'CSV', 'a String')",
            "SELECT * FROM url('http://127.0.0.1:1/', 'CSV', 'a String')",
            "SELECT * FROM remote('127.0.0.1:9000', system.one)",
            "SELECT 1 SETTINGS max_threads = 1",
            "SET readonly = 0",
            "KILL QUERY WHERE query_id = 'no-such-query'",
            "/* a comment */ KILL QUERY WHERE query_id = 'no-such-query'",
            "SYSTEM SHUTDOWN",
            "CREATE TABLE x (a UInt8) ENGINE = Memory",
            "INSERT INTO rejected_lines (file, raw) VALUES ('f', 'r')",
        ]
        var fileMessages: [String] = []
        for sql in refused {
            XCTAssertThrowsError(try reports.adHoc(sql, parameters: [:]), sql) { error in
                XCTAssertTrue(error is AdHocRefused || error is QueryError, "\(sql): \(error)")
                if sql.contains("file(") { fileMessages.append("\(error)") }
            }
        }
        XCTAssertEqual(Set(fileMessages).count, 1, "a path that exists and one that does not answer alike: \(fileMessages)")
        XCTAssertEqual(try reports.adHoc("-- count\n(SELECT count() AS n FROM reading_events)", parameters: [:]).rows, [[.int(0)]])
        XCTAssertEqual(try reports.adHoc("SELECT number FROM system.numbers LIMIT 2", parameters: [:]).rows.count, 2)
    }

    func testARunawayStatementStopsAtItsTimeLimit() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let reports = ClickHouseReports(client: client)
        let interrupter = StatementInterrupter(timeLimit: .seconds(1))
        XCTAssertThrowsError(try reports.adHoc("SELECT count() FROM system.numbers WHERE NOT ignore(sipHash64(number))", parameters: [:],
                                               interrupter: interrupter)) { error in
            XCTAssertEqual((error as? StatementInterrupted)?.cause, .timeLimit(.seconds(1)), "\(error)")
        }
    }

    func testAResultOverItsSizeLimitsStops() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let reports = ClickHouseReports(client: client)
        let limited = { StatementInterrupter(timeLimit: .seconds(60), limits: AdHocLimits(maxBytes: 10_000, maxRows: 100)) }
        XCTAssertThrowsError(try reports.adHoc("SELECT number FROM system.numbers LIMIT 1000", parameters: [:], interrupter: limited())) { error in
            XCTAssertEqual((error as? StatementInterrupted)?.cause, .rows(100), "\(error)")
        }
        XCTAssertThrowsError(try reports.adHoc("SELECT concat(toString(number), '\(String(repeating: "x", count: 500))') FROM system.numbers LIMIT 99",
                                               parameters: [:], interrupter: limited())) { error in
            XCTAssertEqual((error as? StatementInterrupted)?.cause, .bytes(10_000), "\(error)")
        }
        XCTAssertEqual(try reports.adHoc("SELECT number FROM system.numbers LIMIT 99", parameters: [:], interrupter: limited()).rows.count, 99)
    }
}
