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
}
