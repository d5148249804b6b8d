import Foundation

/// How `report serve` runs: which store, where it listens, who may call it, what it accepts.
public struct ServerConfiguration: Sendable {
    /// The SQLite store served by `TallyServer(configuration:)`; created when missing. Unused
    /// when the server is given another backend.
    public var storePath: String
    /// The address to listen on; loopback unless asked otherwise.
    public var host: String
    /// The TCP port; 0 picks a free one (the bound port is reported once listening).
    public var port: Int
    /// The bearer tokens and their scopes; empty for an open server (loopback by default).
    /// With tokens, every request but `GET /` and `GET /healthz` needs one with the scope it
    /// needs (`TokenScope`).
    public var tokens: [AccessToken]
    /// Origins allowed to call from a browser (`*` for any); empty for no CORS headers.
    public var corsOrigins: [String]
    /// The largest request body accepted, counted after gzip decompression.
    public var maxBodyBytes: Int
    /// Whether `/sql` runs ad hoc read-only SQL.
    public var allowSQL: Bool
    /// The longest one `/sql` statement may run before it is stopped (408).
    public var sqlTimeout: Duration
    /// Threads of their own that run `/sql` statements, at most one each at a time (503 beyond).
    public var sqlThreads: Int
    /// Threads that run queries and validate bodies (the writer has its own).
    public var workerThreads: Int
    /// How long a connection may stay without a complete request head, or idle between requests,
    /// before it is closed.
    public var idleTimeout: Duration
    /// The most connections open at once; beyond it new ones wait until one closes.
    public var maxConnections: Int
    /// The clock: milliseconds since the Unix epoch, for reports asked without `now=`.
    public var nowMs: @Sendable () -> Int64
    /// A monotonic clock in nanoseconds, for the latencies of `/metrics`.
    public var clockNs: @Sendable () -> UInt64

    /// Creates a configuration; `token`, when given, is one more token with every scope.
    public init(storePath: String, host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
                tokens: [AccessToken] = [], corsOrigins: [String] = [], maxBodyBytes: Int = 16 << 20, allowSQL: Bool = false,
                sqlTimeout: Duration = .seconds(5), sqlThreads: Int = 2,
                workerThreads: Int = 4, idleTimeout: Duration = .seconds(15), maxConnections: Int = 32_768,
                nowMs: @escaping @Sendable () -> Int64,
                clockNs: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        self.storePath = storePath
        self.host = host
        self.port = port
        self.tokens = tokens + (token.map { [AccessToken($0, scopes: Set(TokenScope.allCases))] } ?? [])
        self.corsOrigins = corsOrigins
        self.maxBodyBytes = maxBodyBytes
        self.allowSQL = allowSQL
        self.sqlTimeout = sqlTimeout
        self.sqlThreads = sqlThreads
        self.workerThreads = workerThreads
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.nowMs = nowMs
        self.clockNs = clockNs
    }
}
