@testable import TallyClickHouse
import TallyEvents
import TallyIngest
import TallyQuery
import TallySQLite
import XCTest

/// The stored keys are looked up with the batch's keys sent as an external table of `RowBinary` rows:
/// keys holding tabs, newlines, quotes and backslashes are found again, and so counted as
/// duplicates, as plain ones are; a key stored under another family is not a duplicate, and a key
/// sent again under another user is one, as in SQLite, however many keys of the batch are stored.
final class DuplicateLookupTests: XCTestCase {
    func testKeysWithSeparatorsAndEscapesAreFoundOnTheNextIngest() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ids = [#"tab\there"#, #"line\nbreak"#, #"quote'and\\back"#, "plain", "线性代数"]
        let lines = ids.enumerated().map { index, id in
            #"{"eventId":"\#(id)","materialId":"m","eventType":"heartbeat","clientTimestampMs":\#(1795100000000 + index),"activeSecondsDelta":15}"#
        }
        let body = Array(lines.joined(separator: "\n").utf8)
        let first = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: body, name: "keys.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(first, IngestCounts(accepted: 5, duplicates: 0, rejected: 0))
        let again = try ClickHouseIngestor(client: client, batchSize: 2).ingest(try EventFileReader(bytes: body, name: "keys.ndjson"),
                                                                                 onRejection: { _, _ in })
        XCTAssertEqual(again, IngestCounts(accepted: 0, duplicates: 5, rejected: 0))
        XCTAssertEqual(try client.query("SELECT count() FROM reading_events").rows, [[.int(5)]])
    }

    func testAKeyStoredUnderAnotherFamilyIsNotADuplicate() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let reading = #"{"eventId":"same","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15}"#
        let exposure = #"{"eventId":"same","eventType":"exposure","clientTimestampMs":1795100000000,"pageId":"home","pageInstanceId":"p","itemId":"i"}"#
        let first = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(reading.utf8), name: "r.ndjson"),
                                                                   onRejection: { _, _ in })
        XCTAssertEqual(first, IngestCounts(accepted: 1, duplicates: 0, rejected: 0))
        // The lookup asks for the plain key; only the reading event of the second file is already stored.
        let both = Array([exposure, reading].joined(separator: "\n").utf8)
        let second = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: both, name: "both.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(second, IngestCounts(accepted: 1, duplicates: 1, rejected: 0))
        XCTAssertEqual(try client.query("SELECT count() FROM exposure_events").rows, [[.int(1)]])
        XCTAssertEqual(try client.query("SELECT count() FROM reading_events").rows, [[.int(1)]])
    }

    func testAKeySentAgainUnderAnotherUserIsADuplicateAsInSQLite() throws {
        // One stored key in the batch (looked up under its user first), then more stored keys
        // than are looked up that way (looked up by key alone).
        for stored in [1, ClickHouseBatchSender.candidatesLookedUpByUser + 1] {
            let client = try TestServer.freshDatabase()
            defer { TestServer.drop(client) }
            try ClickHouseSchema.create(using: client)
            func reading(_ id: Int, user: String) -> String {
                #"{"eventId":"e\#(id)","userId":"\#(user)","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15}"#
            }
            let first = (0..<stored).map { reading($0, user: "u") }
            XCTAssertEqual(try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(first.joined(separator: "\n").utf8), name: "u.ndjson"),
                                                                          onRejection: { _, _ in }).accepted, stored)
            let again = (0..<stored).map { reading($0, user: "v") } + [reading(stored, user: "v")]
            let counts = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(again.joined(separator: "\n").utf8), name: "v.ndjson"),
                                                                        onRejection: { _, _ in })
            XCTAssertEqual(counts, IngestCounts(accepted: 1, duplicates: stored, rejected: 0), "\(stored) stored keys")
            XCTAssertEqual(try client.query("SELECT count() FROM reading_events WHERE user_id = 'v'").rows, [[.int(1)]])
        }
    }
}
