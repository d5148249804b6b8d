import Foundation
import TallyClickHouse
import TallyEvents
import TallyIngest
import TallySQLite
import XCTest

/// What `report serve`'s writer asks of the ClickHouse ingestor: a group of bodies answered
/// per record exactly as the SQLite ingestor answers it, and a send that failed part way
/// counted once when the body comes again.
final class GroupIngestTests: XCTestCase {
    static func reading(_ id: String, delta: Int = 15) -> String {
        #"{"eventId":"\#(id)","userId":"u","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":\#(delta)}"#
    }

    static func chunk(_ lines: [String], label: String = "POST /events") throws -> ValidatedChunk {
        try ValidatedChunk(reading: try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8), name: label), label: label)
    }

    /// Has `ingestor` store `body` while the event tables' inserts fail once stored (their views
    /// included): the events reach their tables and the store fails.
    static func failPartWay(_ ingestor: ClickHouseIngestor, _ body: ValidatedChunk, _ client: ClickHouseClient,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let tables = ["reading_events", "feedback_events", "exposure_events", "observability_events"]
        for table in tables { try TestServer.refuseInserts(into: table, using: client) }
        XCTAssertThrowsError(try ingestor.store(group: [body]), file: file, line: line)
        for table in tables { try TestServer.acceptInserts(into: table, using: client) }
    }

    func testAGroupIsAnsweredPerRecordAsTheSQLiteIngestorAnswersIt() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let feedback = #"{"id":"f1","userId":"u","timestamp":1795100000000,"feedbackType":"like","context":{"impressionId":"i","modelInfo":"v1","feedPosition":1}}"#
        let groups = [
            [try Self.chunk([Self.reading("a"), Self.reading("b"), Self.reading("a", delta: 30), "not json", feedback]),
             try Self.chunk([Self.reading("c"), Self.reading("b"), Self.reading("x", delta: -5)])],
            [try Self.chunk([Self.reading("a"), Self.reading("d"), feedback, #"{"id":"f1"}"#, Self.reading("d")])],
        ]
        let folder = try temporaryFolder("tally-chunks")
        let sqlite = try Ingestor(store: try EventStore(path: folder.appendingPathComponent("s.sqlite").path))
        // Batches of two events: the group is sent in several inserts, later keys looked up after earlier ones are stored.
        let clickHouse = ClickHouseIngestor(client: client, batchSize: 2)
        for group in groups {
            XCTAssertEqual(try clickHouse.store(group: group), try sqlite.store(group: group))
        }
        XCTAssertEqual(clickHouse.counts, sqlite.counts)
        XCTAssertEqual(clickHouse.counts, IngestCounts(accepted: 5, duplicates: 5, rejected: 3))
    }

    func testASendThatFailedPartWayIsCountedOnceWhenTheBodyComesAgain() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let body = try Self.chunk([Self.reading("a"), Self.reading("b"), Self.reading("c")])
        let ingestor = ClickHouseIngestor(client: client)
        try Self.failPartWay(ingestor, body, client)
        XCTAssertEqual(try client.query("SELECT count() FROM reading_events").rows, [[.int(3)]])

        let accepted = try ingestor.store(group: [body])
        XCTAssertEqual(accepted, [["a", "b", "c"].map { IngestOutcome.accepted(key: $0) }])
        XCTAssertEqual(try client.query("SELECT count() FROM reading_events").rows, [[.int(3)]])
        let again = try ingestor.store(group: [body])
        XCTAssertEqual(again, [["a", "b", "c"].map { IngestOutcome.duplicate(key: $0) }])
    }
}
