/// An SQLite failure, with the statement that caused it (as GRDB shows it).
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The SQLite result code.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL being run, if any.
    public var sql: String?

    /// Creates an error.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// `SQLite error 1: no such table: foo - while executing `SELECT …``.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql {
            text += " - while executing `\(sql.trimmingWhitespace())`"
        }
        return text
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
