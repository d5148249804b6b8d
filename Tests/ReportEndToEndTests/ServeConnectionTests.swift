#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TallyTestSupport
import XCTest

/// Connections that never finish their request head are closed, and cannot keep a real
/// request out (`scripts/slowloris.py` does the same with 20,000 of them).
final class ServeConnectionTests: XCTestCase {
    private var files: EventFiles!

    override func setUpWithError() throws {
        files = try EventFiles()
    }

    override func tearDown() {
        files = nil
    }

    /// A TCP connection to the server that sent `bytes` (by default half a request head, as a
    /// slowloris client does).
    private final class RawConnection: Sendable {
        let socket: Int32

        init(port: UInt16, sending bytes: String = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") throws {
            #if os(Linux)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard socket >= 0 else { throw POSIXError(.EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(socket)
                throw POSIXError(.ECONNREFUSED)
            }
            _ = bytes.withCString { send(socket, $0, strlen($0), 0) }
        }

        deinit {
            close(socket)
        }

        /// Sends `bytes` (ignoring a connection the server closed).
        func trickle(_ bytes: String) {
            #if os(Linux)
            _ = bytes.withCString { Glibc.send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            #else
            _ = bytes.withCString { Darwin.send(socket, $0, strlen($0), 0) }
            #endif
        }

        /// Whether the server closed the connection within `seconds` (a read ends, rather than timing out).
        func closedByServer(within seconds: Int) -> Bool {
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            let count = recv(socket, &byte, 1, 0)
            return count == 0 || (count < 0 && errno == ECONNRESET)
        }
    }

    private func port(of server: ServeProcess) throws -> UInt16 {
        try XCTUnwrap(URL(string: server.base)?.port.flatMap { UInt16(exactly: $0) })
    }

    func testConnectionsThatNeverFinishTheirHeadersAreClosed() async throws {
        let server = try ServeProcess(["--db", files.path("s.sqlite"), "--idle-timeout", "0.5"])
        let port = try port(of: server)
        let slow = try (0..<300).map { _ in try RawConnection(port: port) }
        let (status, _) = try await server.request("/healthz")
        XCTAssertEqual(status, 200, "a normal request is answered while 300 heads stay unfinished")
        XCTAssertTrue(slow.allSatisfy { $0.closedByServer(within: 20) }, "every unfinished head is closed after the idle timeout")
        XCTAssertEqual(server.terminate(), 0)
    }

    func testAtTheConnectionLimitTheOldestHeadlessConnectionMakesRoom() async throws {
        let log = files.path("serve.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let server = try ServeProcess(["--db", files.path("s.sqlite"), "--idle-timeout", "600", "--max-connections", "40"],
                                      stderr: try XCTUnwrap(FileHandle(forWritingAtPath: log)))
        let port = try port(of: server)
        let slow = try (0..<120).map { _ in try RawConnection(port: port) }
        let (status, _) = try await server.request("/healthz")
        XCTAssertEqual(status, 200, "a normal request is answered at the limit, long before any idle timeout")
        XCTAssertTrue(slow[0].closedByServer(within: 20), "the oldest headless connection made room")
        XCTAssertEqual(server.terminate(), 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(text.contains("connection limit reached"), text)
    }

    /// Connections that send a request head and then trickle their body (a byte a second, so
    /// the idle timeout never ends them) neither keep a normal request out at the connection
    /// limit, as the oldest unfinished request makes room, nor outlive `--body-timeout`.
    func testSlowBodiesMakeRoomAndEndAtTheBodyTimeout() async throws {
        let server = try ServeProcess(["--db", files.path("s.sqlite"), "--idle-timeout", "4", "--max-connections", "40", "--body-timeout", "8"])
        let port = try port(of: server)
        let slow = try (0..<60).map { _ in
            try RawConnection(port: port, sending: "POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n[")
        }
        let trickle = Task.detached {
            while !Task.isCancelled {
                for connection in slow { connection.trickle(" ") }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        defer { trickle.cancel() }
        let (status, _) = try await server.request("/healthz")
        XCTAssertEqual(status, 200, "a normal request is answered at the limit")
        XCTAssertTrue(slow[0].closedByServer(within: 30), "the oldest unfinished request made room")
        XCTAssertTrue(slow[59].closedByServer(within: 30), "a body unfinished at --body-timeout ends its connection")
        XCTAssertEqual(server.terminate(), 0)
    }

    /// A client that leaves stops its `/sql` statement: once the clients of two runaway
    /// statements (both `/sql` threads) disconnect, a new statement is answered long before
    /// `--sql-timeout` would have freed a thread.
    func testAStatementStopsWhenItsClientDisconnects() async throws {
        let input = try files.write("in.ndjson", EventFiles.reading(1))
        XCTAssertEqual(try ReportBinary.run(["ingest", input, "--db", files.path("s.sqlite")]).status, 0)
        let server = try ServeProcess(["--db", files.path("s.sqlite"), "--allow-sql", "--sql-timeout", "30"])
        let port = try port(of: server)
        let endless = "/sql?q=WITH+RECURSIVE+c(x)+AS+(SELECT+1+UNION+ALL+SELECT+x%2B1+FROM+c)+SELECT+count(*)+FROM+c"
        var runaway: [RawConnection] = []
        var busy = false
        for _ in 0..<200 where !busy {
            // One that arrives while both threads are taken is answered 503 at once; it is harmless.
            if runaway.count < 20 {
                runaway.append(try RawConnection(port: port, sending: "GET \(endless) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            }
            busy = try await server.request("/sql?q=SELECT+1").0 == 503
        }
        XCTAssertTrue(busy, "both /sql threads run a runaway statement")
        runaway.removeAll()
        var answered = false
        for _ in 0..<200 where !answered {
            answered = try await server.request("/sql?q=SELECT+1").0 == 200
        }
        XCTAssertTrue(answered, "the statements of the clients that left were stopped")
        XCTAssertEqual(server.terminate(), 0)
    }
}
