import Foundation
@testable import TallyClickHouse
import TallyQuery
import XCTest

/// Inserts and lookups go over a plain socket on Linux: the server's refusals arrive as one
/// clear sentence (its chunked answer decoded), and stored rows read back unchanged.
final class InsertTransportTests: XCTestCase {
    func testARefusedInsertNamesTheServersReason() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try client.execute("CREATE DATABASE \(client.database)", useDatabase: false)
        var row = RowBinaryWriter()
        row.int64(1)
        XCTAssertThrowsError(try client.insert(into: "no_such_table", columns: ["n"], rows: row)) { error in
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
        try client.execute("CREATE TABLE t (n Int64, s String) ENGINE = MergeTree ORDER BY n")
        var rows = RowBinaryWriter()
        for n in 0..<200_000 {
            rows.int64(Int64(n))
            rows.string("线性代数 \(n)")
        }
        try client.insert(into: "t", columns: ["n", "s"], rows: rows)
        let bytes = (0..<200_000).reduce(0) { $0 + "线性代数 \($1)".utf8.count }
        XCTAssertEqual(try client.query("SELECT count(), sum(n), sum(length(s)) FROM t").rows,
                       [[.int(200_000), .int(19_999_900_000), .int(Int64(bytes))]])
    }

    #if os(Linux)
    func testAChunkedAnswerIsDecodedWholeAndATruncatedOneIsAnError() throws {
        var body = Data(), content = Data()
        for index in 0..<20_000 {
            let chunk = Data("row \(index)\t\(String(repeating: "x", count: index % 50))\r\n".utf8)
            content.append(chunk)
            body.append(Data((String(chunk.count, radix: 16) + (index % 2 == 0 ? "" : ";ext=1") + "\r\n").utf8) + chunk + Data("\r\n".utf8))
        }
        XCTAssertEqual(try PlainHTTPRequest.dechunk(body + Data("0\r\n\r\n".utf8)), content)
        XCTAssertEqual(try PlainHTTPRequest.dechunk(Data("0\r\n\r\n".utf8)), Data())
        for broken in [body, body.prefix(body.count - 3), Data("zz\r\nab\r\n0\r\n\r\n".utf8), Data("5\r\nab".utf8)] {
            XCTAssertThrowsError(try PlainHTTPRequest.dechunk(Data(broken)))
        }
    }
    #endif
}
