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
    /// `OPTIMIZE … FINAL` of `table` merged nothing, `attempts` times (a background merge held
    /// its parts); the last answer's first line is `message`.
    case notMerged(url: String, table: String, attempts: Int, message: String)
    /// Another live writer (`holder`, `ClickHouseWriterLock.Holder`'s description) holds the
    /// writer lock of `database`; a lock unrefreshed for `staleAfter` seconds is taken over.
    case otherWriter(url: String, database: String, holder: String, staleAfter: Int64)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .unreachable(let url, let message): "Cannot reach ClickHouse at \(url): \(message)."
        case .server(let url, let status, let message): "ClickHouse at \(url) answered \(status): \(message)"
        case .unexpectedAnswer(let message): "Unexpected answer from ClickHouse: \(message)."
        case .invalidURL(let url): "--clickhouse-url must be an http:// or https:// URL such as http://127.0.0.1:8123, got \"\(url)\"."
        case .notMerged(let url, let table, let attempts, let message):
            "ClickHouse at \(url) did not merge \(table) after \(attempts) tries (\(message)); its resent rows are not yet counted "
                + "once: the next `report ingest`, `report serve` or `report clickhouse init` merges it and remakes its rollups."
        case .otherWriter(let url, let database, let holder, let staleAfter):
            "Another writer holds ClickHouse database \(database) at \(url): \(holder). One writer at a time: wait for it to finish "
                + "or stop it. The lock of a writer that was killed is taken over once \(staleAfter) s pass without a refresh (at once "
                + "from its own host); to free it by hand: DROP TABLE \(database).\(ClickHouseWriterLock.table)."
        }
    }

    // MARK: - Error codes

    /// The error code of a server's answer, nil for the other failures.
    public var code: Int? {
        Self.code(in: message)
    }

    /// The server's answer (its first line), empty for the other failures.
    var message: String {
        guard case .server(_, _, let message) = self else { return "" }
        return message
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
    /// An `OPTIMIZE` that merged nothing under `optimize_throw_if_noop = 1`: `CANNOT_ASSIGN_OPTIMIZE`
    /// (the parts are busy) and `ABORTED` (the merge was cancelled).
    static let mergeNotDone: Set<Int> = [388, 236]
    /// `TABLE_ALREADY_EXISTS`: a `CREATE` or `RENAME` onto a name taken.
    static let tableExists = 57
    /// `UNKNOWN_TABLE`.
    static let unknownTable = 60
    /// `TIMEOUT_EXCEEDED`: a statement ran past `max_execution_time`.
    static let timeoutExceeded = 159
    /// `READONLY`: a statement `readonly = 1` does not allow (a setting, a table function, a write).
    static let readonly = 164
    /// `TOO_MANY_ROWS_OR_BYTES`: a result past `max_result_rows` or `max_result_bytes`.
    static let resultTooLarge = 396
    /// A shard that cannot be read: `ALL_CONNECTION_TRIES_FAILED` (18.16), and
    /// `NO_REMOTE_SHARD_AVAILABLE`, which current releases put around it for `remote()`.
    static let shardUnreachable: Set<Int> = [279, 519]
}
