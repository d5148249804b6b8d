import CSQLite
import Foundation
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// A per-user learning report reads that user's rows only: its queries seek the user in each
/// table's primary key, so their cost does not grow with the other users a store holds.
final class PerUserQueryTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-per-user-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testPerUserLearningQueriesSeekTheUser() throws {
        let store = try EventStore(path: directory.appendingPathComponent("t.sqlite").path)
        var lines: [String] = []
        for user in 0..<40 {
            for material in 0..<3 {
                let ts = 1_790_000_000_000 + Int64(user * 1_000 + material)
                lines.append(#"{"eventId":"e\#(user)-\#(material)","userId":"u\#(user)","materialId":"m\#(material)","eventType":"heartbeat","clientTimestampMs":\#(ts),"activeSecondsDelta":15,"clientTimezoneOffsetMinutes":0}"#)
            }
        }
        let ingestor = try Ingestor(store: store)
        try ingestor.store(lines: lines, file: "t.ndjson", groupSize: ingestor.batchSize)

        let parameters: [String: SQLValue] = ["user": .text("u17"), "material": .null]
        for name in ["learning_days", "learning_last_event", "learning_materials"] {
            let statement = try store.database.prepare(try QueryLibrary.sql(name), name: name)
            try statement.bind(named: parameters.filter { statement.parameterNames.contains($0.key) })
            var rows = 0
            while try statement.step() { rows += 1 }
            XCTAssertGreaterThan(rows, 0, name)
            XCTAssertEqual(sqlite3_stmt_status(statement.handle, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0), 0,
                           "\(name) steps through a whole table for one user")
        }
    }
}
