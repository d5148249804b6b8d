import Hummingbird
import HummingbirdCore
import Logging

/// At most `limit` open connections: at the limit the server stops accepting (new connections
/// wait in the listen backlog) until one closes, and says so in the log once each time the limit
/// is reached (again after the count fell a tenth below it), so a flood of idle connections
/// cannot use up the process's file descriptors.
struct ConnectionCap: AvailableConnectionsDelegate {
    /// The most connections open at once.
    let limit: Int
    let logger: Logger
    private var open = 0
    /// Whether the limit was logged and the count has not fallen well below it since.
    private var logged = false

    /// A cap of `limit` connections that logs to `logger`.
    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    mutating func connectionOpened() {
        open += 1
        if open == limit && !logged {
            logged = true
            logger.warning("connection limit reached: \(limit) connections open (--max-connections); new connections wait until one closes")
        }
    }

    mutating func connectionClosed() {
        open -= 1
        if open < limit - limit / 10 { logged = false }
    }

    func isAcceptingNewConnections() -> Bool {
        open < limit
    }
}
