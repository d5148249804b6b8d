import Foundation
import TallyTestSupport
import XCTest

/// Reports on a store nobody may write next to, and ad hoc SQL that runs too long, from the CLI.
final class HardenedCommandTests: XCTestCase {
    private var files: EventFiles!
    private var db: String!

    override func setUpWithError() throws {
        files = try EventFiles()
        db = files.path("store/s.sqlite")
        try FileManager.default.createDirectory(atPath: files.path("store"), withIntermediateDirectories: true)
        let input = try files.write("in.ndjson", (0..<30).map { EventFiles.reading($0, day: $0 % 5) }.joined(separator: "\n"))
        XCTAssertEqual(try ReportBinary.run(["ingest", input, "--db", db]).status, 0)
    }

    override func tearDown() {
        files = nil
    }

    /// `chattr` (exit status) on `path`; it holds even for root, which file modes do not.
    private func chattr(_ flag: String, _ path: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A store that records a migration this `report` does not know (a newer Tally's) is
    /// refused by ingest and by the reports, naming both versions; nothing is added to it.
    func testAStoreOfANewerTallyIsRefusedNamingBothVersions() throws {
        let db: String = try XCTUnwrap(self.db)
        let newest = try Python.run("-c", ["import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT identifier FROM tally_migrations ORDER BY rowid DESC LIMIT 1').fetchone()[0])", db])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try Python.run("-c", ["import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                             + "c.execute(\"INSERT INTO tally_migrations (identifier) VALUES ('v9-future')\"); c.commit()", db]).status, 0)
        let input = try files.write("more.ndjson", (100..<110).map { EventFiles.reading($0, day: 1) }.joined(separator: "\n"))
        for arguments in [["ingest", input, "--db", db], ["summary", "--db", db]] {
            let result = try ReportBinary.run(arguments)
            XCTAssertNotEqual(result.status, 0, arguments[0])
            XCTAssertTrue(result.stderr.contains("v9-future") && result.stderr.contains("this Tally knows schemas up to \(newest):"), result.stderr)
        }
        let count = try Python.run("-c", ["import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM reading_events').fetchone()[0])", db])
        XCTAssertEqual(count.output.trimmingCharacters(in: .whitespacesAndNewlines), "30")
    }

    /// A store in a folder that cannot be written (and without the `-shm` file a reader would
    /// create) answers every report as a copy of it does, with a note on stderr that it was
    /// read immutable.
    func testReportsWorkOnAStoreInAReadOnlyFolder() throws {
        let questions = [["summary"], ["trend", "--days", "7"], ["sql", "SELECT count(*) AS n FROM reading_events"]]
        let copy = files.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        let before = try questions.map { try ReportBinary.run($0 + ["--db", copy, "--format", "json", "--now", "2026-11-20T12:00:00Z"]) }
        let folder = files.path("store")
        guard FileManager.default.fileExists(atPath: "/usr/bin/chattr"), try chattr("+i", folder) == 0 else {
            throw XCTSkip("chattr +i is not available here, so no folder is read-only to root")
        }
        defer { _ = try? chattr("-i", folder) }
        XCTAssertFalse(FileManager.default.createFile(atPath: files.path("store/probe"), contents: Data()), "the folder is read-only")
        for (question, expected) in zip(questions, before) {
            let result = try ReportBinary.run(question + ["--db", db, "--format", "json", "--now", "2026-11-20T12:00:00Z"])
            XCTAssertEqual(result.status, 0, "\(question): \(result.stderr)")
            XCTAssertEqual(result.stdout, expected.stdout, "\(question)")
            XCTAssertTrue(result.stderr.contains("reading it immutable"), result.stderr)
        }
    }

    /// `report sql` and `report query` stop a runaway statement at `--sql-timeout` and say which limit.
    func testARunawayStatementStopsAtTheSQLTimeout() throws {
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        let sql = try ReportBinary.run(["sql", endless, "--db", db, "--sql-timeout", "0.3"])
        XCTAssertNotEqual(sql.status, 0)
        XCTAssertTrue(sql.stderr.contains("0.3 s limit (--sql-timeout)"), sql.stderr)
        let file = try files.write("endless.sql", endless)
        let query = try ReportBinary.run(["query", file, "--db", db, "--sql-timeout", "0.3"])
        XCTAssertNotEqual(query.status, 0)
        XCTAssertTrue(query.stderr.contains("--sql-timeout"), query.stderr)
        let attach = try ReportBinary.run(["sql", "ATTACH DATABASE '\(db!)' AS x", "--db", db])
        XCTAssertNotEqual(attach.status, 0)
        XCTAssertTrue(attach.stderr.contains("ATTACH"), attach.stderr)
    }

    /// `report sql` and `report query` refuse a value or a result over `--sql-max-bytes` and a
    /// result over `--sql-max-rows`, naming the flag.
    func testResultsOverTheSizeLimitsStopNamingTheFlag() throws {
        let huge = try ReportBinary.run(["sql", "SELECT length(upper(hex(zeroblob(100000000))))", "--db", db])
        XCTAssertNotEqual(huge.status, 0)
        XCTAssertTrue(huge.stderr.contains("33554432-byte limit (--sql-max-bytes)"), huge.stderr)
        let rows = try ReportBinary.run(["sql", "SELECT * FROM reading_events", "--db", db, "--sql-max-rows", "10"])
        XCTAssertNotEqual(rows.status, 0)
        XCTAssertTrue(rows.stderr.contains("10-row limit (--sql-max-rows)"), rows.stderr)
        let file = try files.write("big.sql", "SELECT zeroblob(5000)")
        let query = try ReportBinary.run(["query", file, "--db", db, "--sql-max-bytes", "4096"])
        XCTAssertNotEqual(query.status, 0)
        XCTAssertTrue(query.stderr.contains("4096-byte limit (--sql-max-bytes)"), query.stderr)
        XCTAssertEqual(try ReportBinary.run(["sql", "SELECT count(*) FROM reading_events", "--db", db, "--sql-max-rows", "1"]).status, 0)
    }

    /// Runaway `/sql` statements hold neither the report threads nor the process: reports are
    /// answered meanwhile and SIGTERM ends the server.
    func testSIGTERMStopsTheServerWhileRunawayStatementsRun() async throws {
        let server = try ServeProcess(["--db", db, "--allow-sql", "--sql-timeout", "3", "--threads", "2"])
        let endless = "/sql?q=WITH+RECURSIVE+c(x)+AS+(SELECT+1+UNION+ALL+SELECT+x%2B1+FROM+c)+SELECT+count(*)+FROM+c"
        let runaway = (0..<2).map { _ in Task { try? await server.request(endless) } }
        let (status, _) = try await server.request("/learning/summary?now=2026-11-20T12:00:00Z")
        XCTAssertEqual(status, 200)
        let (written, _) = try await server.request("/events", method: "POST", body: Data(EventFiles.reading(900).utf8))
        XCTAssertEqual(written, 200)
        XCTAssertEqual(server.terminate(), 0)
        for task in runaway {
            if let (status, _) = await task.value { XCTAssertTrue([408, 503].contains(status), "\(status)") }
        }
    }
}
