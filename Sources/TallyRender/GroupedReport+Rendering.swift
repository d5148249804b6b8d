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

    /// One row: `{<column>: <value>, ...}`.
    private func json(of row: [ReportValue]) -> JSONValue {
        Self.json(of: row, columns: columns)
    }

    /// A row of `columns`: `{<column>: <value>, ...}`.
    static func json(of row: [ReportValue], columns: [ReportColumn]) -> JSONValue {
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
