import Foundation

/// A bare TCP connection to a local server, for a client that leaves in the middle of an answer.
final class RawHTTPConnection {
    private let socket: Int32

    /// Connects to `port` on the loopback address (IPv4, else IPv6) and sends `request`.
    init(port: Int, sending request: String) throws {
        var connected: Int32 = -1
        var sock: Int32 = -1
        for family in [AF_INET, AF_INET6] {
            sock = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
            guard sock >= 0 else { continue }
            if family == AF_INET {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = UInt16(port).bigEndian
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            } else {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = UInt16(port).bigEndian
                address.sin6_addr = in6addr_loopback
                connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(sock, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
                }
            }
            if connected == 0 { break }
            Glibc.close(sock)
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        socket = sock
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = request.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    deinit {
        Glibc.close(socket)
    }

    /// Reads until at least `count` bytes arrived (or the server closed, or 30 s passed without
    /// a byte); what arrived.
    func read(atLeast count: Int) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while received.count < count {
            let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        return received
    }
}
