import TallyEvents

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

// MARK: - Identity

extension SQLValue {
    /// Whether both are the same value; texts are the same only when their bytes are (as
    /// SQLite's `BINARY` collation compares them), never merely canonically equivalent.
    public static func == (lhs: SQLValue, rhs: SQLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null), (.emptyBlob, .emptyBlob): true
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.text(let a), .text(let b)): a.hasSameBytes(as: b)
        default: false
        }
    }

    /// Hashes the case and its value (a text by its bytes).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .int(let value): hasher.combine(1); hasher.combine(value)
        case .double(let value): hasher.combine(2); hasher.combine(value)
        case .text(let value): hasher.combine(3); value.hashBytes(into: &hasher)
        case .emptyBlob: hasher.combine(4)
        }
    }
}
