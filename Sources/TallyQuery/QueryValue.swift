/// A value bound to a named parameter of a report query, in no backend's dialect: SQLite binds
/// it as it is, ClickHouse writes it as a literal of the placeholder's type.
public enum QueryValue: Sendable, Equatable, Hashable {
    /// No value: the saved queries read a null `user`, `file` or `material` as "all".
    case null
    /// An integer.
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// Text.
    case text(String)

    /// `text` when there is one, else null (an optional `user`, `file` or `material`).
    public init(_ text: String?) {
        self = text.map { .text($0) } ?? .null
    }
}
