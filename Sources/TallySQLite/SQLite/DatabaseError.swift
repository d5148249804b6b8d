/// An SQLite failure, with the statement that caused it.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The SQLite result code.
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL being run, if any.
    public var sql: String?
    /// What names that SQL for people, such as `queries/learning_summary.sql`; nil when it has no name.
    public var statementName: String?

    /// Creates an error.
    public init(code: Int32, message: String, sql: String? = nil, statementName: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.statementName = statementName
    }

    /// The longest excerpt of unnamed SQL a description shows, in characters.
    static let excerptLength = 80

    /// `SQLite error 11: database disk image is malformed - while running queries/learning_summary.sql`;
    /// SQL without a name is shown by its first line, cut to `excerptLength` characters, never in full.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let statementName {
            text += " - while running \(statementName)"
        } else if let sql {
            text += " - while executing `\(Self.excerpt(sql))`"
        }
        return text
    }

    /// The first non-blank line of `sql`, trimmed, with `…` when anything was left out.
    static func excerpt(_ sql: String) -> String {
        let lines = sql.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        guard let first = lines.first else { return "" }
        let cut = first.count > excerptLength
        let shown = cut ? String(first.prefix(excerptLength)) : first
        return shown + (cut || lines.count > 1 ? " …" : "")
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
