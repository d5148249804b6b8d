#if os(Linux)
import Foundation
import Glibc

/// One HTTP/1.1 POST over its own TCP connection, written with plain socket calls: the request
/// head and body in as few `send`s as the kernel takes, the answer read to the end
/// (`Connection: close`; a reset right after a whole answer ends it too), chunked bodies
/// decoded. It carries every request to `http://` servers on Linux, where Foundation's
/// `URLSession` spent more system time handing each body's pieces between threads than the rest
/// of the ingest took (a 200,000-event ingest: 13 s of system time against 7 s of user time),
/// and starting its threads took a report's process longer than the server took to answer its
/// queries.
struct PlainHTTPRequest {
    var host: String
    var port: Int
    /// The path and percent-encoded query, such as `/?query=…`.
    var target: String
    var headers: [String: String]
    var body: Data
    /// Seconds a connect, send or receive may wait.
    var timeout: Int

    /// What the server answered.
    struct Response {
        var status: Int
        var body: Data
    }

    /// A failure before any answer arrived (the caller may send the request again).
    struct Unanswered: Error {
        var message: String
    }

    /// Sends the request and returns the answer; throws `Unanswered` when there is none.
    func send() throws -> Response {
        let socket = try connect()
        defer { close(socket) }
        var head = "POST \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        do {
            try write(Data(head.utf8), to: socket)
            try write(body, to: socket)
        } catch {
            // A server may answer and close before it has read the whole body (a refusal).
            guard let answer = try? readAll(socket), Self.isComplete(answer) else { throw error }
            return try Self.parse(answer)
        }
        return try Self.parse(try readAll(socket))
    }

    private func connect() throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Unanswered(message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            failure = String(cString: strerror(errno))
            close(socket)
        }
        throw Unanswered(message: failure)
    }

    private func write(_ data: Data, to socket: Int32) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    throw Unanswered(message: String(cString: strerror(errno)))
                }
                offset += sent
            }
        }
    }

    private func readAll(_ socket: Int32) throws -> Data {
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { return answer }
            if count < 0 {
                if errno == EINTR { continue }
                // A server that closes with part of the request unread (ClickHouse leaves the
                // end of a multipart body) resets the connection after its whole answer.
                if errno == ECONNRESET, Self.isComplete(answer) { return answer }
                throw Unanswered(message: String(cString: strerror(errno)))
            }
            answer.append(contentsOf: buffer[..<count])
        }
    }

    /// The status and body of a complete HTTP/1.1 answer.
    static func parse(_ answer: Data) throws -> Response {
        guard let (lines, body) = split(answer) else { throw Unanswered(message: "the answer ended before its headers did") }
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw Unanswered(message: "not an HTTP answer: \(lines[0])")
        }
        return Response(status: status, body: isChunked(lines) ? try dechunk(body) : body)
    }

    /// Whether `answer` holds an answer to its end as its own head marks it: a chunked body's
    /// last chunk, or `Content-Length` bytes (not a body that ends where the connection does).
    static func isComplete(_ answer: Data) -> Bool {
        guard let (lines, body) = split(answer) else { return false }
        if isChunked(lines) { return (try? dechunk(body)) != nil }
        let length = lines.lazy.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
        return length.map { body.count >= $0 } ?? false
    }

    /// An answer's head lines (the status line first) and the bytes after them.
    private static func split(_ answer: Data) -> (lines: [String], body: Data)? {
        guard let end = answer.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: answer[answer.startIndex..<end.lowerBound], as: UTF8.self)
        return (head.components(separatedBy: "\r\n"), Data(answer[end.upperBound...]))
    }

    private static func isChunked(_ lines: [String]) -> Bool {
        lines.dropFirst().contains { $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked") }
    }

    /// A chunked body's content, in one pass over its bytes (`Data.range(of:)` copies the whole
    /// body on each call on Linux, which made an answer of many chunks cost its size squared).
    static func dechunk(_ body: Data) throws -> Data {
        let bytes = [UInt8](body)
        var out = Data(capacity: bytes.count)
        var index = 0
        while let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) {
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Unanswered(message: "a chunk size that is not hexadecimal")
            }
            if size == 0 { return out }
            let start = lineEnd + 2
            guard bytes.count - start >= size + 2 else { throw Unanswered(message: "the answer ended inside a chunk") }
            out.append(contentsOf: bytes[start..<(start + size)])
            index = start + size + 2
        }
        throw Unanswered(message: "the answer ended before its last chunk")
    }
}
#endif
