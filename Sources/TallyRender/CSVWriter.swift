/// Writes RFC 4180 CSV: a header row, CRLF line ends, and fields quoted when they hold a comma,
/// a double quote, CR or LF (quotes doubled inside).
enum CSVWriter {
    /// A CSV document of a header and rows.
    static func document(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { row in
            row.map(field).joined(separator: ",") + "\r\n"
        }.joined()
    }

    private static let specials: Set<Unicode.Scalar> = [",", "\"", "\r", "\n"]

    /// One field, quoted when it must be.
    private static func field(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: specials.contains) else { return value }
        return "\"" + value.replacing("\"", with: "\"\"") + "\""
    }
}
