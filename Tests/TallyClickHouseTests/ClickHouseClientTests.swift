@testable import TallyClickHouse
import TallySupport
import XCTest

/// The client's behaviour without a server: retries with backoff, and clear failures.
final class ClickHouseClientTests: XCTestCase {
    func testAnUnreachableServerIsTriedAgainWithGrowingPausesThenReported() throws {
        let pauses = Locked<[Double]>([])
        // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
        let client = try ClickHouseClient(url: "http://127.0.0.1:9", database: "tally", attempts: 4,
                                          pause: { seconds in pauses.withLock { $0.append(seconds) } })
        XCTAssertThrowsError(try client.insert(into: "reading_events", columns: ["event_id"], rows: RowBinaryWriter())) { error in
            guard case .unreachable(let url, _)? = error as? ClickHouseError else { return XCTFail("\(error)") }
            XCTAssertEqual(url, "http://127.0.0.1:9")
        }
        XCTAssertEqual(pauses.withLock { $0 }, [0.5, 1, 2])
    }

    func testALookupIsTriedAgainAsAnInsertIsAndAPlainQueryIsNot() throws {
        let pauses = Locked<[Double]>([])
        let client = try ClickHouseClient(url: "http://127.0.0.1:9", database: "tally", attempts: 3,
                                          pause: { seconds in pauses.withLock { $0.append(seconds) } })
        XCTAssertThrowsError(try client.query("SELECT key FROM batch_keys", table: "batch_keys", structure: "key String",
                                              rows: RowBinaryWriter(rowsOf: [("a", "b")]) { $0 })) { error in
            guard case .unreachable? = error as? ClickHouseError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(pauses.withLock { $0 }, [0.5, 1])
        // A report's query fails at once: a dashboard is not kept waiting for a server that is down.
        XCTAssertThrowsError(try client.query("SELECT 1"))
        XCTAssertEqual(pauses.withLock { $0 }, [0.5, 1])
    }

    func testABadURLIsRefusedWithOneSentence() {
        XCTAssertThrowsError(try ClickHouseClient(url: "localhost:8123")) { error in
            XCTAssertEqual("\(error)", "--clickhouse-url must be an http:// or https:// URL such as http://127.0.0.1:8123, got \"localhost:8123\".")
        }
    }
}
