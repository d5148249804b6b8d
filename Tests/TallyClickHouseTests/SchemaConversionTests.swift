import TallyClickHouse
import TallyIngest
import TallyQuery
import XCTest

/// A database made by the first layout (daily partitions) is converted, rows kept, when the
/// schema is created, and the keys' table of earlier releases dropped; a conversion stopped half
/// way is finished by the next run.
final class SchemaConversionTests: XCTestCase {
    /// `reading_events` as the first layout created it.
    private static let dailyReadingEvents = """
        CREATE TABLE %@ (
        event_id String, user_id String, session_id Nullable(String), material_id String, event_type String,
        ts_ms Int64, tz_minutes Int16, local_date Date, sequence Nullable(Int64), active_seconds UInt32,
        progress Nullable(Float64), position Nullable(String), target_type String, title Nullable(String),
        knowledge_base_id Nullable(String), platform Nullable(String), app_version Nullable(String), extra Nullable(String))
        ENGINE = ReplacingMergeTree PARTITION BY local_date ORDER BY (user_id, local_date, material_id, event_id)
        """

    private func fill(_ client: ClickHouseClient, _ table: String) throws {
        try client.execute("""
            INSERT INTO \(table) (event_id, user_id, material_id, event_type, ts_ms, tz_minutes, local_date, active_seconds, target_type)
            VALUES ('e1', 'u', 'm', 'heartbeat', 1795100000000, 0, '2026-11-20', 15, 'knowledge_source'),
                   ('e2', 'u', 'm', 'heartbeat', 1792500000000, 0, '2026-10-21', 30, 'knowledge_source')
            """)
    }

    private func readingEvents(_ client: ClickHouseClient) throws -> (partition: ReportValue, rows: ReportValue, seconds: ReportValue) {
        let layout = try client.query(
            "SELECT partition_key FROM system.tables WHERE database = '\(client.database)' AND name = 'reading_events'")
        let rows = try client.query("SELECT count(), sum(active_seconds) FROM reading_events")
        return (layout.rows.first?.first ?? .null, rows.rows[0][0], rows.rows[0][1])
    }

    func testDailyPartitionsAreConvertedToMonthlyKeepingEveryRow() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try client.execute("CREATE DATABASE \(client.database)", useDatabase: false)
        try client.execute(String(format: Self.dailyReadingEvents, "reading_events"))
        try fill(client, "reading_events")
        try ClickHouseSchema.create(using: client)
        let converted = try readingEvents(client)
        XCTAssertEqual(converted.partition, .text("substring(local_date, 1, 7)"))
        XCTAssertEqual(converted.rows, .int(2))
        XCTAssertEqual(converted.seconds, .int(45))
        XCTAssertEqual(try client.query("SELECT min(local_date), max(local_date) FROM reading_events").rows,
                       [[.text("2026-10-21"), .text("2026-11-20")]], "a Date becomes its text")
        let tables = try client.query("SELECT name FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0")
        XCTAssertEqual(tables.rows, [], "no table of the conversion is left behind")
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try readingEvents(client).rows, .int(2), "creating the schema again changes nothing")
    }

    func testAConversionStoppedBetweenTheTwoRenamesIsFinished() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        // The state a stop after `RENAME reading_events TO reading_events__old` leaves.
        try client.execute("RENAME TABLE reading_events TO reading_events__new")
        try fill(client, "reading_events__new")
        try client.execute(String(format: Self.dailyReadingEvents, "reading_events__old"))
        try ClickHouseSchema.create(using: client)
        let finished = try readingEvents(client)
        XCTAssertEqual(finished.partition, .text("substring(local_date, 1, 7)"))
        XCTAssertEqual(finished.rows, .int(2))
        let leftovers = try client.query("SELECT name FROM system.tables WHERE database = '\(client.database)' AND position(name, '__') > 0")
        XCTAssertEqual(leftovers.rows, [])
    }

    /// What earlier releases kept of the keys beside `reading_events` holding e1 and e2:
    /// `event_keys`, holding them, and the keys' set fed by it alone (unless `stoppedHalfWay`: its
    /// view already dropped by a conversion that stopped there).
    private func plantKeysTable(_ client: ClickHouseClient, stoppedHalfWay: Bool) throws {
        for view in 0..<4 { try client.execute("DROP TABLE event_key_probe_mv\(view)") }
        try client.execute("DROP TABLE event_key_probe")
        try client.execute("CREATE TABLE event_key_probe (h UInt64) ENGINE = Set")
        try fill(client, "reading_events")
        try client.execute("CREATE TABLE event_keys (family String, key String) ENGINE = ReplacingMergeTree ORDER BY (family, key)")
        try client.execute("""
            CREATE MATERIALIZED VIEW event_key_probe_mv0 TO event_key_probe AS SELECT cityHash64(family, key) AS h FROM event_keys
            """)
        try client.execute("INSERT INTO event_keys VALUES ('reading', 'e1'), ('reading', 'e2')")
        if stoppedHalfWay { try client.execute("DROP TABLE event_key_probe_mv0") }
    }

    func testTheKeysTableOfEarlierReleasesIsDroppedAndTheEventTablesFeedTheKeysSet() throws {
        for stoppedHalfWay in [false, true] {
            let client = try TestServer.freshDatabase()
            defer { TestServer.drop(client) }
            try ClickHouseSchema.create(using: client)
            try plantKeysTable(client, stoppedHalfWay: stoppedHalfWay)
            try ClickHouseSchema.create(using: client)
            XCTAssertEqual(try client.texts("""
                SELECT name FROM system.tables WHERE database = currentDatabase() AND (position(name, 'event_key') = 1 OR position(name, '__') > 0)
                ORDER BY name
                """), ["event_key_probe"] + (0..<4).map { "event_key_probe_mv\($0)" })
            let lines = ["e1", "e2", "e3"].map { GroupIngestTests.reading($0) }
            let ingest = { try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8),
                                                                                           name: "again.ndjson"), onRejection: { _, _ in }) }
            XCTAssertEqual(try ingest(), IngestCounts(accepted: 1, duplicates: 2, rejected: 0), "stoppedHalfWay \(stoppedHalfWay)")
            XCTAssertEqual(try client.query("SELECT count() FROM reading_events WHERE cityHash64('reading', event_id) NOT IN event_key_probe").rows,
                           [[.int(0)]], "the set holds every stored key (stoppedHalfWay \(stoppedHalfWay))")
            XCTAssertEqual(try ingest(), IngestCounts(accepted: 0, duplicates: 3, rejected: 0))
        }
    }
}
