/// A value bound to, or read from, SQL.
public enum SQLValue: Sendable, Equatable, Hashable {
    /// SQL NULL.
    case null
    /// An INTEGER.
    case int(Int64)
    /// A REAL.
    case double(Double)
    /// TEXT.
    case text(String)
    /// A zero-length BLOB: a non-null stand-in for "none" in keys that cannot hold NULL.
    case emptyBlob
}
