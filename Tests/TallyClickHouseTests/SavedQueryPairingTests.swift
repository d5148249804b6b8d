import Foundation
import TallyClickHouse
import TallyQuery
import TallySQLite
import XCTest

/// Saved queries pair by name across dialects: `queries/NAME.sql` and
/// `queries/clickhouse/NAME.sql`, or the library says why one has no twin; `report query`
/// with `--backend clickhouse` runs the ClickHouse file, never the SQLite one on disk.
final class SavedQueryPairingTests: XCTestCase {
    func testEverySavedQueryHasItsTwinOrSaysWhyNot() {
        let sqlite = Set(QueryLibrary.names), clickHouse = Set(ClickHouseQueries.names)
        XCTAssertFalse(sqlite.isEmpty)
        for name in sqlite {
            XCTAssertNotEqual(clickHouse.contains(name), ClickHouseQueries.withoutClickHouseTwin[name] != nil,
                              "queries/\(name).sql needs queries/clickhouse/\(name).sql or a reason in withoutClickHouseTwin (not both)")
        }
        for name in clickHouse {
            XCTAssertNotEqual(sqlite.contains(name), ClickHouseQueries.withoutSQLiteTwin[name] != nil,
                              "queries/clickhouse/\(name).sql needs queries/\(name).sql or a reason in withoutSQLiteTwin (not both)")
        }
    }

    func testTheClickHouseBackendRunsTheTwinOfASavedQueryPath() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        let target = ["--backend", "clickhouse", "--clickhouse-url", try TestServer.url(), "--clickhouse-database", client.database]
        XCTAssertEqual(try TestServer.report(["clickhouse", "init"] + target).status, 0)
        let path = TestServer.root.appendingPathComponent("queries/learning_days.sql").path
        let byPath = try TestServer.report(["query", path, "--format", "json"] + target)
        let byName = try TestServer.report(["query", "learning_days", "--format", "json"] + target)
        XCTAssertEqual(byPath.status, 0, byPath.stderr)
        XCTAssertEqual(byPath.stdout, byName.stdout)
        XCTAssertEqual(byName.status, 0, byName.stderr)
        let lone = try TestServer.report(["query", "latency_values"] + target)
        XCTAssertNotEqual(lone.status, 0)
        XCTAssertTrue(lone.stderr.contains("has no ClickHouse twin"), lone.stderr)
    }
}
