/// Failures of a report request that a user can act on; each description is one sentence.
public enum QueryError: Error, Sendable, CustomStringConvertible, Equatable {
    /// No bundled query has this name.
    case unknownQuery(String)
    /// A saved SQLite query was asked of ClickHouse, which has no file of that name; says why.
    case noClickHouseTwin(String, reason: String)
    /// Ad hoc SQL tried to change the store.
    case writeRefused(String)
    /// A parameter is out of its range or malformed; names the parameter.
    case invalidParameter(name: String, message: String)
    /// A parameter names something the store holds nothing of under the question's filters (a
    /// baseline model without impressions); names the parameter. HTTP answers it 404.
    case notFound(name: String, message: String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .unknownQuery(let name): "No saved query named \(name) (see queries/)."
        case .noClickHouseTwin(let name, let reason): "queries/\(name).sql has no ClickHouse twin in queries/clickhouse/: \(reason)."
        case .writeRefused(let sql): "Refused to run a statement that writes: queries are read-only (\(sql.prefix(60)))."
        case .invalidParameter(let name, let message), .notFound(let name, let message): "\(name): \(message)"
        }
    }
}
