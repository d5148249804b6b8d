import TallyQuery
import TallySupport

extension SQLiteReports {
    /// Runs read-only SQL with named parameters (`:name`) under `ReadOnlyAuthorizer`: a statement
    /// that writes, attaches, sets a pragma or opens a transaction is refused before it runs.
    /// `interrupter` bounds its run (`StatementInterrupted` when it stops it).
    public func adHoc(_ sql: String, parameters: [String: QueryValue] = [:], interrupter: StatementInterrupter? = nil) throws -> GroupedReport {
        let statement = try database.prepareAdHoc(sql)
        guard statement.isReadOnly else { throw QueryError.writeRefused(sql) }
        try statement.bind(named: parameters.mapValues(SQLValue.init))
        let columns = (0..<statement.columnCount).map { ReportColumn(statement.columnName($0), role: .measure) }
        let rows = try (interrupter ?? StatementInterrupter(timeLimit: nil)).run(on: database) {
            try statement.allRows().map { $0.map(ReportValue.init) }
        }
        return GroupedReport(columns: columns, rows: rows)
    }

    /// The rejected lines, oldest first (of one file, or all).
    public func rejected(file: String? = nil) throws -> GroupedReport {
        try adHoc(try QueryLibrary.sql("rejected"), parameters: ["file": QueryValue(file)])
    }
}
