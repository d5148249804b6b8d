import TallyClickHouse
import TallyEvents
import TallyIngest
import TallyQuery
import TallySQLite
import XCTest

/// The ingest reads and writes a batch while the batch before it is being sent: a key of that
/// batch met again in the next is still a duplicate (the next batch is looked up only once the
/// one before it is stored, so the first stored wins), and a batch that fails stops the ingest
/// with nothing after it stored.
final class PipelinedIngestTests: XCTestCase {
    static func reading(_ id: String, delta: Int) -> String {
        #"{"eventId":"\#(id)","userId":"u","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":\#(delta)}"#
    }

    func testAKeyOfTheBatchBeforeIsADuplicateInTheNextBatch() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        // Batches of two: every batch repeats, with another value, a key of the batch before it.
        var lines: [String] = []
        for index in 0..<40 {
            lines.append(Self.reading("k\(index)", delta: 10))
            if index > 0 { lines.append(Self.reading("k\(index - 1)", delta: 1000)) }
        }
        let counts = try ClickHouseIngestor(client: client, batchSize: 2).ingest(
            try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "pairs.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(counts, IngestCounts(accepted: 40, duplicates: 39, rejected: 0))
        XCTAssertEqual(try client.query("SELECT count(), sum(active_seconds) FROM reading_events").rows, [[.int(40), .int(400)]])
        XCTAssertEqual(try client.query("SELECT count() FROM reading_events WHERE cityHash64('reading', event_id) IN event_key_probe").rows,
                       [[.int(40)]], "the keys' set holds every stored key")
    }

    func testABatchThatFailsStopsTheIngestWithNothingAfterItStored() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        try TestServer.refuseInserts(into: "reading_events", using: client)
        let lines = (0..<10).map { Self.reading("e\($0)", delta: 15) }
        let ingestor = ClickHouseIngestor(client: client, batchSize: 2)
        XCTAssertThrowsError(try ingestor.ingest(try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "ten.ndjson"),
                                                 onRejection: { _, _ in }))
        XCTAssertEqual(try client.query("SELECT count() FROM reading_events").rows, [[.int(2)]])
        XCTAssertEqual(ingestor.counts.accepted, 0)
    }
}
