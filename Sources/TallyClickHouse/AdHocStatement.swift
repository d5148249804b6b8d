/// What ad hoc SQL may be on ClickHouse, beyond what `readonly = 1` refuses (writes, DDL,
/// settings, table functions such as `url()`, `remote()` and `file()`): `KILL QUERY` passes
/// `readonly`, so only statements that begin with a reading keyword are sent at all.
enum AdHocStatement {
    /// The keywords a reading statement may begin with.
    static let readingKeywords: Set<String> = ["SELECT", "WITH", "SHOW", "DESCRIBE", "DESC", "EXISTS", "EXPLAIN"]

    /// Whether `sql` begins (after blanks, comments and opening parentheses) with a reading keyword.
    static func isReading(_ sql: String) -> Bool {
        readingKeywords.contains(leadingKeyword(sql).uppercased())
    }

    /// The first word of `sql` after blanks, `--` and `/* */` comments and `(`.
    static func leadingKeyword(_ sql: String) -> String {
        var rest = Substring(sql)
        while let first = rest.first {
            if first.isWhitespace || first == "(" {
                rest.removeFirst()
            } else if rest.hasPrefix("--") {
                rest = rest.drop(while: { !$0.isNewline })
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { return "" }
                rest = rest[end.upperBound...]
            } else {
                break
            }
        }
        return String(rest.prefix(while: { $0.isLetter }))
    }
}
