import Foundation
import TallyClickHouse
import TallyQuery
import XCTest

/// A server whose parts are busy answers `OPTIMIZE … FINAL` by merging nothing (18.16's default
/// `optimize_throw_if_noop = 0`). The backend never trusts such an answer: the rollups are
/// remade only from a table that holds each resent event once, and a table that stays busy
/// fails the send with a clear error instead of counting twice.
final class BusyMergeTests: XCTestCase {
    /// `scripts/busy_parts_front.py` in front of the test server: its first `busy` OPTIMIZEs merge nothing.
    private final class BusyFront {
        let process = Process()
        let url: String

        init(busy: Int) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", TestServer.root.appendingPathComponent("scripts/busy_parts_front.py").path,
                                 "--upstream", try TestServer.url(), "--busy", String(busy)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
                line.append(first)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("listening on ") else { throw XCTSkip("scripts/busy_parts_front.py did not start: \(text)") }
            url = "http://127.0.0.1:" + text.dropFirst("listening on ".count)
        }

        deinit {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private func seconds(_ client: ClickHouseClient) throws -> [[ReportValue]] {
        try client.query("SELECT (SELECT sum(seconds) FROM reading_daily), (SELECT sumMerge(seconds_state) FROM reading_materials), "
                         + "(SELECT count() FROM reading_events)").rows
    }

    /// Stores three readings through `front` after a send that failed part way, so that the body
    /// comes again and is stored a second time; background merges are stopped until the first
    /// pause, so only the backend's own `OPTIMIZE` can collapse the copies.
    private func resend(through front: BusyFront, _ direct: ClickHouseClient) throws {
        let client = try ClickHouseClient(url: front.url, database: direct.database, pause: { _ in
            try? direct.execute("SYSTEM START MERGES \(direct.database).reading_events")
        })
        let ingestor = ClickHouseIngestor(client: client)
        let body = try GroupIngestTests.chunk(["a", "b", "c"].map { GroupIngestTests.reading($0) })
        try GroupIngestTests.failPartWay(ingestor, body, direct)
        try direct.execute("SYSTEM STOP MERGES \(direct.database).reading_events")
        _ = try ingestor.store(group: [body])
    }

    func testAResendMergedWhileThePartsAreBusyCountsOnce() throws {
        let direct = try TestServer.freshDatabase()
        defer { TestServer.drop(direct) }
        try ClickHouseSchema.create(using: direct)
        let front = try BusyFront(busy: 2)
        try resend(through: front, direct)
        XCTAssertEqual(try seconds(direct), [[.int(45), .int(45), .int(3)]], "the rollups are remade from one copy of each event")
        XCTAssertEqual(try ClickHouseReports(client: direct).summary(ReportContext(nowMs: BackendParity.now)).totalActiveSeconds, 45)
    }

    func testATableThatStaysBusyFailsTheSendAndTheNextRunRepairsIt() throws {
        let direct = try TestServer.freshDatabase()
        defer { TestServer.drop(direct) }
        try ClickHouseSchema.create(using: direct)
        let front = try BusyFront(busy: 1_000)
        XCTAssertThrowsError(try resend(through: front, direct)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("did not merge") && text.contains("reading_events"), text)
        }
        try direct.execute("SYSTEM START MERGES \(direct.database).reading_events")
        try ClickHouseSchema.create(using: direct)
        XCTAssertEqual(try seconds(direct), [[.int(45), .int(45), .int(3)]])
    }
}
