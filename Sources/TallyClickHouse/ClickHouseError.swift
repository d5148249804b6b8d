/// Failures talking to ClickHouse; each description is one sentence naming the server.
public enum ClickHouseError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The server could not be reached (refused, timed out, name unknown).
    case unreachable(url: String, message: String)
    /// The server answered with an error (HTTP status and its first line).
    case server(url: String, status: Int, message: String)
    /// The answer was not what the query promised.
    case unexpectedAnswer(String)
    /// The URL given is not an http(s) URL.
    case invalidURL(String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .unreachable(let url, let message): "Cannot reach ClickHouse at \(url): \(message)."
        case .server(let url, let status, let message): "ClickHouse at \(url) answered \(status): \(message)"
        case .unexpectedAnswer(let message): "Unexpected answer from ClickHouse: \(message)."
        case .invalidURL(let url): "--clickhouse-url must be an http:// or https:// URL such as http://127.0.0.1:8123, got \"\(url)\"."
        }
    }

    // MARK: - Error codes

    /// The error code of a server's answer, nil for the other failures.
    public var code: Int? {
        guard case .server(_, _, let message) = self else { return nil }
        return Self.code(in: message)
    }

    /// The number after `Code: ` at the start of a ClickHouse error message, however the release
    /// words the rest: `Code: 159, e.displayText() = DB::Exception: …` (18.16) and
    /// `Code: 159. DB::Exception: …` (current releases) both give 159.
    static func code(in message: String) -> Int? {
        guard message.hasPrefix("Code: ") else { return nil }
        return Int(message.dropFirst(6).prefix(while: { $0.isASCII && $0.isNumber }))
    }

    /// `NOT_IMPLEMENTED`: an `OPTIMIZE` of a Distributed table, among others.
    static let notImplemented = 48
    /// `TIMEOUT_EXCEEDED`: a statement ran past `max_execution_time`.
    static let timeoutExceeded = 159
    /// `READONLY`: a statement `readonly = 1` does not allow (a setting, a table function, a write).
    static let readonly = 164
    /// A shard that cannot be read: `ALL_CONNECTION_TRIES_FAILED` (18.16), and
    /// `NO_REMOTE_SHARD_AVAILABLE`, which current releases put around it for `remote()`.
    static let shardUnreachable: Set<Int> = [279, 519]
}
