import Foundation
import TallyClickHouse
import XCTest

/// One writer per database (`ClickHouseWriterLock`): a second writer fails with an error naming
/// the first, and the lock of a writer that was killed is taken over.
final class WriterLockTests: XCTestCase {
    private func ingest(_ client: ClickHouseClient) throws -> (status: Int32, stdout: String, stderr: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-lock-\(UUID().uuidString).ndjson")
        try (GroupIngestTests.reading("a") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try TestServer.report(["ingest", file.path, "--backend", "clickhouse", "--clickhouse-url", client.url.absoluteString,
                                      "--clickhouse-database", client.database])
    }

    /// The id of a process that ran on this host and has exited.
    private func deadPid() throws -> Int64 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return Int64(process.processIdentifier)
    }

    func testASecondWriterFailsNamingTheFirst() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        let serve = try ClickHouseWriterLock.acquire(using: client, command: "report serve", host: "web-1", pid: 4242)
        defer { serve.release() }
        let second = try ingest(client)
        XCTAssertNotEqual(second.status, 0)
        for part in ["Another writer holds ClickHouse database \(client.database)", "report serve (pid 4242 on host web-1, since ",
                     "One writer at a time", "DROP TABLE \(client.database).writer_lock"] {
            XCTAssertTrue(second.stderr.contains(part), "\(part) in: \(second.stderr)")
        }
        XCTAssertThrowsError(try ClickHouseWriterLock.acquire(using: client, command: "report ingest")) { error in
            guard case .otherWriter(_, _, let holder, _)? = error as? ClickHouseError else { return XCTFail("\(error)") }
            XCTAssertTrue(holder.hasPrefix("report serve (pid 4242 on host web-1"), holder)
        }

        serve.release()
        XCTAssertNil(try ClickHouseWriterLock.holder(using: client))
        let after = try ingest(client)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertNil(try ClickHouseWriterLock.holder(using: client), "the ingest released its lock")
    }

    func testTheLockOfAKilledWriterOnThisHostIsTakenOverAtOnce() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        // A writer on this host that was killed without releasing its lock (its timer stopped with it).
        let killed = try ClickHouseWriterLock.acquire(using: client, command: "report ingest", host: ProcessInfo.processInfo.hostName,
                                                      pid: try deadPid(), refreshEvery: 3600)
        let taken = try ingest(client)
        XCTAssertEqual(taken.status, 0, taken.stderr)
        XCTAssertEqual(try client.query("SELECT count() FROM reading_events").rows, [[.int(1)]])
        killed.release()
    }

    func testAnotherHostsLockIsTakenOverOnceItIsStale() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        let elsewhere = try ClickHouseWriterLock.acquire(using: client, command: "report serve", host: "web-2", pid: 1, refreshEvery: 3600)
        defer { elsewhere.release() }
        XCTAssertThrowsError(try ClickHouseWriterLock.acquire(using: client, command: "report ingest"))
        // Its last refresh an hour ago: the server's clock says it is stale.
        try client.execute("DROP TABLE writer_lock")
        try client.execute("""
            CREATE TABLE writer_lock ENGINE = MergeTree ORDER BY token AS
            SELECT '\(elsewhere.token)' AS token, 'web-2' AS host, toInt64(1) AS pid, 'report serve' AS command,
                   now() - 7200 AS since, now() - 3600 AS refreshed
            """)
        XCTAssertEqual(try ClickHouseWriterLock.holder(using: client)?.host, "web-2")
        let ingest = try ClickHouseWriterLock.acquire(using: client, command: "report ingest", staleAfter: 60)
        XCTAssertEqual(try ClickHouseWriterLock.holder(using: client)?.token, ingest.token)
        elsewhere.release()
        XCTAssertEqual(try ClickHouseWriterLock.holder(using: client)?.token, ingest.token, "a writer that lost its lock leaves the new one")
        ingest.release()
        XCTAssertNil(try ClickHouseWriterLock.holder(using: client))
    }
}
