import Foundation
import TallyClickHouse
import TallyQuery
import TallySQLite
import XCTest

/// A run killed mid-batch (its events stored, its changes to the feed counters not) leaves a
/// store that the next run repairs: re-running the same ingest gives every report and every
/// count a clean ingest gives.
final class InterruptedBatchTests: XCTestCase {
    private static let marks = "SELECT count() FROM system.tables WHERE database = currentDatabase() AND position(name, 'ingest__in_flight_') = 1"

    /// Counts of each event table.
    private func counts(_ client: ClickHouseClient) throws -> [[ReportValue]] {
        try client.query("""
            SELECT (SELECT count() FROM reading_events), (SELECT count() FROM feedback_events),
                   (SELECT count() FROM exposure_events), (SELECT count() FROM observability_events)
            """).rows
    }

    /// Ingests the sample files with the exposure counts' changes refused before their views, so
    /// the first batch (exposures) stores its events (and, unless `statesLost`, its feed states)
    /// but not what they change in the counters, and the ingest stops; the ingestor is then
    /// dropped, as a killed process's memory is. With `statesLost` the state tables and their
    /// counters are emptied: the store a kill before the states' views leaves.
    private func killMidBatch(_ client: ClickHouseClient, statesLost: Bool) throws {
        try TestServer.refuseInserts(into: "exposure_changes", beforeItsViews: true, using: client)
        XCTAssertThrowsError(try {
            try TestServer.ingestSample(into: client, batchSize: 1000)
        }())
        try TestServer.acceptInserts(into: "exposure_changes", using: client)
        if statesLost {
            for table in ["impression_exposures", "impression_reactions", "dislike_groups", "dislike_reason_counts", "rollup_counters", "dislike_user_groups",
                          "dislike_user_reason_counts", "exposure_pairs", "exposure_groups", "exposure_members", "exposure_user_groups",
                          "exposure_user_members", "exposure_counters"] {
                try client.execute("TRUNCATE TABLE \(table)")
            }
        }
        XCTAssertEqual(try client.query("SELECT count() > 0 FROM exposure_events").rows, [[.int(1)]], "the batch's events are stored")
        XCTAssertEqual(try client.query(Self.marks).rows, [[.int(1)]], "the batch is still marked in flight")
    }

    /// Re-runs the ingest in a new ingestor, as `report ingest` does (schema first), and
    /// compares the store with a clean ingest's and every report with SQLite's.
    private func assertRerunConverges(_ client: ClickHouseClient, file: StaticString = #filePath, line: UInt = #line) throws {
        try ClickHouseSchema.create(using: client)
        XCTAssertEqual(try client.query(Self.marks).rows, [[.int(0)]], "the repair drops the mark", file: file, line: line)
        try TestServer.ingestSample(into: client, batchSize: 1000)
        XCTAssertEqual(try client.query(Self.marks).rows, [[.int(0)]], file: file, line: line)

        let clean = try TestServer.freshDatabase()
        defer { TestServer.drop(clean) }
        try ClickHouseSchema.create(using: clean)
        try TestServer.ingestSample(into: clean, batchSize: 1000)
        XCTAssertEqual(try counts(client), try counts(clean), "events as a clean ingest stores them", file: file, line: line)

        try BackendParity.assertSame(try sqliteReportsOfTheSample(), ClickHouseReports(client: client),
                                     file: file, line: line)
    }

    func testARunKilledBetweenABatchsEventsAndItsCounterChangesConvergesOnTheRerun() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        try killMidBatch(client, statesLost: false)
        try assertRerunConverges(client)
    }

    func testARunKilledBetweenABatchsEventsAndItsFeedStatesConvergesOnTheRerun() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        try killMidBatch(client, statesLost: true)
        try assertRerunConverges(client)
    }
}
