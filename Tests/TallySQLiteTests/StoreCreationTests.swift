import Foundation
@testable import TallySQLite
import TallySupport
import XCTest

/// Creating and migrating a store is safe to race, and a store of a newer Tally is refused.
final class StoreCreationTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-create-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testManyConnectionsCreatingOneNewStoreAtOnceAllSucceed() throws {
        for round in 0..<8 {
            let path = directory.appendingPathComponent("race-\(round).sqlite").path
            let failures = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 12) { _ in
                do {
                    _ = try EventStore(path: path)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            XCTAssertEqual(failures.withLock { $0 }, [], "round \(round)")
            let store = try EventStore(readingAt: path)
            XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM tally_migrations"),
                           Int64(TallySchema.migrator.migrations.count))
        }
    }

    func testAStoreWithAMigrationThisTallyDoesNotKnowIsRefusedNamingBothVersions() throws {
        let path = directory.appendingPathComponent("newer.sqlite").path
        try EventStore(path: path).database.execute("INSERT INTO tally_migrations (identifier) VALUES ('v9-from-the-future')")
        let newest = try XCTUnwrap(TallySchema.migrator.migrations.last?.identifier)
        for open in [{ _ = try EventStore(path: path) }, { _ = try EventStore(readingAt: path) }] {
            XCTAssertThrowsError(try open()) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("v9-from-the-future") && text.contains(newest) && text.contains("newer Tally"), text)
            }
        }
    }
}
