import TallyClickHouse
import TallyQuery
import XCTest

/// Inserts and lookups go over a plain socket on Linux: the server's refusals arrive as one
/// clear sentence (its chunked answer decoded), and stored rows read back unchanged.
final class InsertTransportTests: XCTestCase {
    func testARefusedInsertNamesTheServersReason() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try client.execute("CREATE DATABASE \(client.database)", useDatabase: false)
        XCTAssertThrowsError(try client.insert(into: "no_such_table", jsonEachRow: Array("{}\n".utf8))) { error in
            guard case .server(_, let status, let message)? = error as? ClickHouseError else { return XCTFail("\(error)") }
            XCTAssertEqual(status, 404)
            XCTAssertEqual((error as? ClickHouseError)?.code, 60, message)
            XCTAssertTrue(message.contains("DB::Exception: Table"), message)
            XCTAssertFalse(message.contains("\n"), message)
        }
    }

    func testALargeInsertArrivesWhole() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try client.execute("CREATE DATABASE \(client.database)", useDatabase: false)
        try client.execute("CREATE TABLE t (n UInt64, s String) ENGINE = MergeTree ORDER BY n")
        let rows = (0..<200_000).map { #"{"n":\#($0),"s":"线性代数 \#($0)"}"# }.joined(separator: "\n")
        try client.insert(into: "t", jsonEachRow: Array(rows.utf8))
        let bytes = (0..<200_000).reduce(0) { $0 + "线性代数 \($1)".utf8.count }
        XCTAssertEqual(try client.query("SELECT count(), sum(n), sum(length(s)) FROM t").rows,
                       [[.int(200_000), .int(19_999_900_000), .int(Int64(bytes))]])
    }
}
