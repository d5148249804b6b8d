/// A table for the terminal: a header row, a rule, and rows whose columns line up by display
/// width (`String.displayWidth`), two spaces apart, with no trailing spaces.
struct TextTable {
    /// Where a column's cells sit: text to the left, numbers to the right.
    enum Alignment {
        /// Padded after the text.
        case left
        /// Padded before the text.
        case right
    }

    /// A column: its header, alignment and, with color on, the style of its cells.
    struct Column {
        /// The header text.
        var title: String
        /// Where its cells sit.
        var alignment: Alignment
        /// The style of its cells when color is on.
        var style: ANSIStyle? = nil
    }

    /// A cell longer than this many columns is cut, ending in `…`.
    private static let maxCellWidth = 80

    /// The columns.
    var columns: [Column]
    /// The rows, one string per column, as shown (before escaping and cutting).
    var rows: [[String]]
    /// Per row, per column, a style that takes the place of the column's when color is on
    /// (rows without an entry keep their columns' styles).
    var styles: [[ANSIStyle?]] = []

    /// The table's lines, each ending in a newline; `(no rows)` under the rule when empty.
    /// With `color`, the header is bold and styled columns are colored; without it, no escape
    /// code is written, and none can come from the cells (`String.terminalSafe`).
    func rendered(color: Bool) -> String {
        let header = columns.map { $0.title.terminalSafe }
        let cells = rows.map { row in row.map { $0.terminalSafe.truncated(toWidth: TextTable.maxCellWidth) } }
        let widths = columns.indices.map { index in
            cells.reduce(header[index].displayWidth) { max($0, $1[index].displayWidth) }
        }
        func line(_ texts: [String], style: (Int) -> ANSIStyle?) -> String {
            let padded = texts.enumerated().map { index, text in
                let fill = String(repeating: " ", count: widths[index] - text.displayWidth)
                let shown = color ? style(index).map { $0.apply(text) } ?? text : text
                return columns[index].alignment == .left ? shown + fill : fill + shown
            }
            return padded.joined(separator: "  ").droppingTrailingSpaces + "\n"
        }
        var out = line(header) { _ in .bold }
        out += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
        if cells.isEmpty {
            out += "(no rows)\n"
        }
        for (index, row) in cells.enumerated() {
            let rowStyles = index < styles.count ? styles[index] : []
            out += line(row) { column in (column < rowStyles.count ? rowStyles[column] : nil) ?? columns[column].style }
        }
        return out
    }
}
