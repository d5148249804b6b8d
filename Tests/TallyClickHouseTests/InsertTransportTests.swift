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

    /// ClickHouse answers a query with external data, then closes with the end of the multipart
    /// body unread, which resets the connection behind its answer.
    func testAWholeAnswerFollowedByAResetIsTheAnswer() throws {
        let body = Data(repeating: 120, count: 256 * 1024)
        let answer = try OneAnswerServer.answer(leavingUnread: 64, of: body.count,
                                                with: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n") { port in
            try PlainHTTPRequest(host: "127.0.0.1", port: port, target: "/", headers: [:], body: body, timeout: 10).send()
        }
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.body, Data("hello".utf8))
    }

    /// A server that refuses a request before reading its body: its answer, not the reset.
    func testARefusalBeforeTheBodyIsReadIsTheAnswer() throws {
        let body = Data(repeating: 120, count: 16 << 20)
        let answer = try OneAnswerServer.answer(leavingUnread: body.count, of: body.count,
                                                with: "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 8\r\n\r\ntoo long") { port in
            try PlainHTTPRequest(host: "127.0.0.1", port: port, target: "/", headers: [:], body: body, timeout: 10).send()
        }
        XCTAssertEqual(answer.status, 413)
        XCTAssertEqual(answer.body, Data("too long".utf8))
    }

    func testAnAnswerIsCompleteOnlyWhereItsHeadSaysItEnds() {
        for (text, complete) in [("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", true),
                                 ("HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nok", false),
                                 ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", true),
                                 ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n", false),
                                 ("HTTP/1.1 200 OK\r\n\r\nok", false), ("HTTP/1.1 200 OK\r\nContent-Length: 2", false)] {
            XCTAssertEqual(PlainHTTPRequest.isComplete(Data(text.utf8)), complete, text)
        }
    }
    #endif
}

#if os(Linux)
/// A server on a loopback port for one request: reads all of it but `leavingUnread` bytes of
/// its body, waits until (up to 1 KiB of) those have arrived, writes `answer` and closes, so
/// that the kernel resets the connection (data was left unread).
enum OneAnswerServer {
    static func answer<T>(leavingUnread unread: Int, of bodyLength: Int, with answer: String,
                          _ client: (Int) throws -> T) throws -> T {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(listener, raw, length) == 0, listen(listener, 1) == 0, getsockname(listener, raw, &length) == 0 else {
                    throw POSIXError(.EADDRNOTAVAIL)
                }
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let served = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { served.signal() }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var received = [UInt8](), buffer = [UInt8](repeating: 0, count: 65_536)
            var wanted = Int.max
            while received.count < wanted {
                let count = recv(connection, &buffer, min(buffer.count, wanted - received.count), 0)
                guard count > 0 else { return }
                received += buffer[..<count]
                if wanted == .max, let end = received.indices.dropLast(3).first(where: { received[$0..<($0 + 4)] == [13, 10, 13, 10] }) {
                    wanted = end + 4 + bodyLength - unread
                }
            }
            // Unread bytes (all of them, up to 1 KiB) are in the receive queue before the close.
            let waiting = min(unread, 1024)
            while waiting > 0 {
                let peeked = recv(connection, &buffer, waiting, Int32(MSG_PEEK))
                if peeked <= 0 || peeked >= waiting { break }
                usleep(1000)
            }
            _ = Array(answer.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        defer {
            shutdown(listener, Int32(SHUT_RDWR)) // ends an accept that no client came to
            served.wait()
        }
        return try client(port)
    }
}
#endif
