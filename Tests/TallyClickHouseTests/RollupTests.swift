import Foundation
import TallyClickHouse
import TallyQuery
import XCTest

/// The rollups the reports read (`ClickHouseRollups`): a database without them gets them filled
/// from its events, a fill stopped half way is made again, and an insert sent twice counts once.
final class RollupTests: XCTestCase {
    private static let rollups = ["reading_daily", "reading_daily_all", "reading_materials", "reading_materials_all", "reading_latest",
                                          "event_user_counts"]

    /// Active seconds per rollup that sums them, and in the event table.
    private func seconds(_ client: ClickHouseClient) throws -> [ReportValue] {
        try client.query("""
            SELECT (SELECT sum(seconds) FROM reading_daily), (SELECT sum(seconds) FROM reading_daily_all),
                   (SELECT sumMerge(seconds_state) FROM reading_materials), (SELECT sumMerge(seconds_state) FROM reading_materials_all),
                   (SELECT sum(active_seconds) FROM reading_events)
            """).rows[0]
    }

    private func leftovers(_ client: ClickHouseClient) throws -> [[ReportValue]] {
        try client.query("SELECT name FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0").rows
    }

    private func storeThreeReadings(_ client: ClickHouseClient) throws {
        let ingestor = ClickHouseIngestor(client: client)
        _ = try ingestor.store(group: [try GroupIngestTests.chunk(["a", "b", "c"].map { GroupIngestTests.reading($0) })])
    }

    func testADatabaseWithoutRollupsGetsThemFilledFromItsEventsAndTheViewsKeepThemCurrent() throws {
        let client = try sampleDatabase(batchSize: 5_000).client
        // A database made before the rollups existed: its events only.
        for name in Self.rollups {
            try client.execute("DROP TABLE \(name)_mv")
            try client.execute("DROP TABLE \(name)")
        }
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try leftovers(client), [])
        try BackendParity.assertSame(try sqliteReportsOfTheSample(), ClickHouseReports(client: client))

        let before = try seconds(client)
        _ = try ClickHouseIngestor(client: client).store(group: [try GroupIngestTests.chunk([GroupIngestTests.reading("new-one", delta: 7)])])
        let after = try seconds(client)
        let expected = before.map { value -> ReportValue in if case .int(let total) = value { .int(total + 7) } else { value } }
        XCTAssertEqual(after, expected, "every rollup takes the new event through its view")
    }

    func testAFillStoppedHalfWayIsMadeAgain() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        try storeThreeReadings(client)
        // The state a stop during the fill leaves: no `reading_daily`, a `reading_daily__new` holding anything.
        try client.execute("RENAME TABLE reading_daily TO reading_daily__new")
        try client.execute("INSERT INTO reading_daily__new VALUES ('u', '2026-11-20', 'm', 1000, 1)")
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try seconds(client), Array(repeating: .int(45), count: 5))
        XCTAssertEqual(try leftovers(client), [])
    }

    func testARollupMadeByAnEarlierLayoutIsMadeAgain() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        try storeThreeReadings(client)
        try client.execute("DROP TABLE reading_daily_mv")
        try client.execute("DROP TABLE reading_daily")
        try client.execute("""
            CREATE TABLE reading_daily (user_id String, local_date Date, material_id String, active_seconds UInt64)
            ENGINE = SummingMergeTree ORDER BY (user_id, local_date, material_id)
            """)
        try client.execute("""
            CREATE MATERIALIZED VIEW reading_daily_mv TO reading_daily AS
            SELECT user_id, local_date, material_id, toUInt64(active_seconds) AS active_seconds FROM reading_events
            """)
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try seconds(client), Array(repeating: .int(45), count: 5))
        try storeThreeReadings(client)
        XCTAssertEqual(try seconds(client), Array(repeating: .int(45), count: 5), "the events are duplicates")
        _ = try ClickHouseIngestor(client: client).store(group: [try GroupIngestTests.chunk([GroupIngestTests.reading("d", delta: 5)])])
        XCTAssertEqual(try seconds(client), Array(repeating: .int(50), count: 5), "the new view feeds the new table")
    }

    func testEachUsersMaterialStatesAreKeptPerMonthAndAnUnpartitionedTableIsRemade() throws {
        let client = try sampleDatabase(batchSize: 5_000).client
        let expected = try sqliteReportsOfTheSample()
        let users = try client.texts("SELECT DISTINCT user_id FROM reading_events ORDER BY user_id")
        func partitions() throws -> [String] {
            try client.texts("""
                SELECT DISTINCT partition FROM system.parts
                WHERE database = '\(client.database)' AND table = 'reading_materials' AND active
                """).sorted()
        }
        let materials = try client.texts("SELECT DISTINCT material_id FROM reading_events ORDER BY material_id LIMIT 5")
        // `continue` and `progress` are the reports built on the material states.
        func assertSameMaterials(_ note: String) throws {
            let actual = ClickHouseReports(client: client)
            for user in [nil] + users.map(Optional.some) {
                let context = ReportContext(user: user, nowMs: BackendParity.now, timezoneOffsetMinutes: nil)
                XCTAssertEqual(try actual.continueLearning(context), try expected.continueLearning(context), "\(note) \(user ?? "all")")
                for material in materials {
                    XCTAssertEqual(try actual.progress(context, materialId: material), try expected.progress(context, materialId: material),
                                   "\(note) \(user ?? "all") \(material)")
                }
            }
        }
        // A load's merges rewrite the states of the months it brings, not every user's.
        let months = try client.texts("SELECT DISTINCT substring(local_date, 1, 7) FROM reading_events").sorted()
        XCTAssertGreaterThan(months.count, 1, "the sample spans months")
        XCTAssertEqual(try partitions(), months)
        XCTAssertEqual(try client.texts("""
            SELECT toString(position(engine_full, 'index_granularity = 256') > 0) FROM system.tables
            WHERE database = currentDatabase() AND name = 'reading_materials'
            """), ["1"], "a user's states are read in marks of 256 states, a mark per month")
        try assertSameMaterials("by month")

        // The table as the earlier layout made it (one partition, no month) is made again.
        try client.execute("DROP TABLE reading_materials_mv")
        try client.execute("DROP TABLE reading_materials")
        try client.execute("""
            CREATE TABLE reading_materials (user_id String, material_id String, seconds_state AggregateFunction(sum, UInt64))
            ENGINE = AggregatingMergeTree ORDER BY (user_id, material_id)
            """)
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try partitions(), months)
        try assertSameMaterials("remade")
    }

    func testASchemaCreatedAgainKeepsTheRollupsItMade() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        try storeThreeReadings(client)
        // A row no event made in each rollup sorted by one column (a remade rollup loses it):
        // current releases spell such a key `(name)`, 18.16 `name`.
        try client.execute("INSERT INTO rollup_counters (name, value) VALUES ('probe', 1)")
        try client.execute("INSERT INTO exposure_counters (name, value) VALUES ('probe', 1)")
        try client.execute("INSERT INTO reading_latest SELECT 'probe', maxState(tuple(toInt64(1), toInt64(0), 'e', toInt16(0)))")
        let states = try client.texts("""
            SELECT name FROM system.columns WHERE database = '\(client.database)' AND table = 'reading_materials_all' AND name != 'material_id'
            """).joined(separator: ", ")
        try client.execute("INSERT INTO reading_materials_all (material_id, \(states)) SELECT 'probe', \(states) FROM reading_materials_all LIMIT 1")
        try ClickHouseSchema.create(using: client)
        for (table, key) in [("rollup_counters", "name"), ("exposure_counters", "name"), ("reading_latest", "user_id"),
                             ("reading_materials_all", "material_id")] {
            XCTAssertEqual(try client.query("SELECT count() FROM \(table) WHERE \(key) = 'probe'").rows, [[.int(1)]], "\(table) was made again")
        }
    }

    func testASendThatFailedPartWayCountsOnceInTheRollupsWhenTheBodyComesAgain() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let ingestor = ClickHouseIngestor(client: client)
        let body = try GroupIngestTests.chunk(["a", "b", "c"].map { GroupIngestTests.reading($0) })
        // The events reach their table (and the rollups), the send fails.
        try GroupIngestTests.failPartWay(ingestor, body, client)

        _ = try ingestor.store(group: [body])
        XCTAssertEqual(try seconds(client), Array(repeating: .int(45), count: 5))
        XCTAssertEqual(try ClickHouseReports(client: client).summary(ReportContext(nowMs: BackendParity.now)).totalActiveSeconds, 45)
        XCTAssertEqual(try leftovers(client), [], "the stale mark is gone once the rollups are made again")
    }

    func testRollupsMarkedStaleByAStoppedRunAreMadeAgainFromTheMergedEvents() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        try storeThreeReadings(client)
        // A resend stored a second copy (the views counted it too), then the run stopped after the mark.
        try client.execute("CREATE TABLE reading_events__rollups_stale (stale UInt8) ENGINE = TinyLog")
        try client.execute("INSERT INTO reading_events SELECT * FROM reading_events")
        try client.execute("OPTIMIZE TABLE reading_events FINAL")
        XCTAssertEqual(try seconds(client)[0], .int(90))
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try seconds(client), Array(repeating: .int(45), count: 5))
        XCTAssertEqual(try leftovers(client), [])
    }
}
