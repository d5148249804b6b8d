import Foundation
import TallyIngest
@testable import TallySQLite
import TallySupport
import TallyTestSupport
import XCTest

/// What is durable when (docs/decisions.md, "What a commit promises"): a file's batches may wait
/// for one sync at its end, a group stored for `report serve` is on disk when stored.
final class IngestDurabilityTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try WALSyncRecorder.install()
    }

    override func tearDownWithError() throws {
        WALSyncRecorder.uninstall()
        try? FileManager.default.removeItem(at: directory)
    }

    private func lines(_ count: Int, from first: Int = 0) -> [String] {
        (first..<first + count).map { i in
            #"{"eventId":"e-\#(i)","timestamp":\#(1_700_000_000_000 + i),"eventName":"app_launch","sessionId":"s","userId":"u","properties":{}}"#
        }
    }

    private func file(_ lines: [String]) throws -> String {
        let url = directory.appendingPathComponent("\(UUID().uuidString).ndjson")
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testAFileIsSyncedOnceWhenItsIngestReturnsNotOncePerBatch() throws {
        let store = try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
        let ingestor = try Ingestor(store: store, batchSize: 100)
        let input = try file(lines(1_000))
        WALSyncRecorder.reset()
        XCTAssertEqual(try ingestor.ingest(file: input, onRejection: { _, _ in }), IngestCounts(accepted: 1_000))
        XCTAssertTrue(WALSyncRecorder.everythingWrittenIsSynced, "the last batch of the file is on disk when the ingest returns")
        XCTAssertEqual(WALSyncRecorder.syncs, 1, "ten batches, one sync: \(WALSyncRecorder.operations.count) operations")
    }

    func testAFileCommitsItsBatchesTogetherEveryRecordsPerCommit() throws {
        let path = directory.appendingPathComponent("t.sqlite").path
        let ingestor = try Ingestor(store: try EventStore(path: path), batchSize: 100)
        ingestor.recordsPerCommit = 1_000
        let reader = try EventStore(readingAt: path).database
        var seen: Set<Int64> = []
        WALSyncRecorder.reset()
        let counts = try ingestor.ingest(file: try file(lines(3_500)), onRejection: { _, _ in }) { _, _ in
            seen.insert((try? reader.scalarInt("SELECT count(*) FROM observability_events")) ?? -1)
        }
        XCTAssertEqual(counts, IngestCounts(accepted: 3_500))
        XCTAssertEqual(seen, [0, 1_000, 2_000, 3_000], "a reader sees whole commits of ten batches")
        XCTAssertEqual(try reader.scalarInt("SELECT count(*) FROM observability_events"), 3_500)
        XCTAssertEqual(WALSyncRecorder.syncs, 1, "and the file is still synced once")
    }

    func testAFileCutShortIsSyncedBeforeItsErrorIsReported() throws {
        let store = try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
        let ingestor = try Ingestor(store: store, batchSize: 100)
        let gz = try Gzip.compress(Array(lines(1_000).joined(separator: "\n").utf8))
        let input = directory.appendingPathComponent("cut.ndjson.gz").path
        try Data(gz.dropLast(5)).write(to: URL(fileURLWithPath: input))
        WALSyncRecorder.reset()
        XCTAssertThrowsError(try ingestor.ingest(file: input, onRejection: { _, _ in })) { error in
            XCTAssertNotNil(error as? EventFileError, "\(error)")
        }
        XCTAssertGreaterThan(try store.database.scalarInt("SELECT count(*) FROM observability_events") ?? 0, 900,
                             "the records before the damage are stored")
        XCTAssertTrue(WALSyncRecorder.everythingWrittenIsSynced, "and on disk when the error is reported")
        XCTAssertEqual(WALSyncRecorder.syncs, 1)
    }

    func testAGroupStoredForTheServerIsOnDiskWhenStoredEvenAfterAFile() throws {
        let store = try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
        let ingestor = try Ingestor(store: store, batchSize: 100)
        for (round, first) in [0, 1_000].enumerated() {
            if round == 1 {
                _ = try ingestor.ingest(file: try file(lines(300, from: 5_000)), onRejection: { _, _ in })
            }
            let body = try EventFileReader(bytes: Array(lines(3, from: first).joined(separator: "\n").utf8), name: "body")
            WALSyncRecorder.reset()
            let outcomes = try ingestor.store(group: [try ValidatedChunk(reading: body, label: "POST /events")])
            XCTAssertEqual(outcomes.first?.count, 3)
            XCTAssertTrue(WALSyncRecorder.everythingWrittenIsSynced, "round \(round): the answer waits for the disk")
            XCTAssertGreaterThan(WALSyncRecorder.syncs, 0, "round \(round)")
            XCTAssertEqual(try store.database.scalarInt("PRAGMA synchronous"), 2, "round \(round): FULL")
        }
    }
}
