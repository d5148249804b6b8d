import TallyEvents
import TallyQuery

extension GroupedReport {
    /// `{"rows": [{<column>: <value>, ...}, ...]}`, keys in column order.
    var json: JSONValue {
        .object([("rows", .array(rowObjects))])
    }

    /// One `{<column>: <value>, ...}` per row, keys in column order.
    var rowObjects: [JSONValue] {
        rows.map(json(of:))
    }

    /// `json`'s text and a newline, rendered `rowsPerPiece` rows at a time with `check` called
    /// before each piece, so a long answer stops as soon as `check` throws.
    func jsonText(rowsPerPiece: Int, checking check: () throws -> Void) rethrows -> String {
        try check()
        guard !rows.isEmpty else { return json.text + "\n" }
        // As `JSONValue.text` lays out `json`: the array of objects one per line, each on one line.
        var out = "{\n  \"rows\": [\n"
        for start in stride(from: 0, to: rows.count, by: max(1, rowsPerPiece)) {
            if start > 0 { try check() }
            for index in start..<min(start + max(1, rowsPerPiece), rows.count) {
                if index > 0 { out += ",\n" }
                out += "    "
                json(of: rows[index]).write(into: &out, depth: 2, layout: .readable)
            }
        }
        out += "\n  ]\n}\n"
        return out
    }

    /// One row: `{<column>: <value>, ...}`.
    private func json(of row: [ReportValue]) -> JSONValue {
        .object(zip(columns, row).map { column, value in (column.name, value.jsonValue) })
    }

    /// A header of the column names and one line per row; null is an empty field.
    var csv: String {
        CSVWriter.document(header: columns.map(\.name), rows: rows.map { $0.map(\.jsonValue.csvField) })
    }

    /// A table with one line per row; a column whose values are all numbers is right-aligned.
    func table(color: Bool) -> String {
        let tableColumns = columns.indices.map { index in
            let values = rows.map { $0[index] }.filter { $0 != .null }
            let numeric = !values.isEmpty && values.allSatisfy(\.isNumber)
            return TextTable.Column(title: columns[index].name, alignment: numeric ? .right : .left)
        }
        let cells = rows.map { row in zip(columns, row).map { column, value in value.display(as: column.role) } }
        return TextTable(columns: tableColumns, rows: cells).rendered(color: color)
    }
}
