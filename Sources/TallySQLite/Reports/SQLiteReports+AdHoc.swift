import TallyQuery
import TallySupport

extension SQLiteReports {
    /// Runs read-only SQL with named parameters (`:name`) under `ReadOnlyAuthorizer`: a statement
    /// that writes, attaches, sets a pragma or opens a transaction is refused before it runs.
    /// `interrupter` bounds its run, its values and its result as it is read (`StatementInterrupted`
    /// when it stops it); without one nothing does.
    public func adHoc(_ sql: String, parameters: [String: QueryValue] = [:], interrupter: StatementInterrupter? = nil) throws -> GroupedReport {
        let statement = try database.prepareAdHoc(sql)
        guard statement.isReadOnly else { throw QueryError.writeRefused(sql) }
        try statement.bind(named: parameters.mapValues(SQLValue.init))
        let columns = (0..<statement.columnCount).map { ReportColumn(statement.columnName($0), role: .measure) }
        let bounds = interrupter ?? StatementInterrupter(timeLimit: nil, limits: .none)
        let rows = try bounds.run(on: database) {
            try Self.rows(of: statement, within: bounds.limits)
        }
        return GroupedReport(columns: columns, rows: rows)
    }

    /// The rows of `statement`, stopped (and the statement reset) as soon as they come to more
    /// rows or bytes than `limits` allow.
    private static func rows(of statement: Statement, within limits: AdHocLimits) throws -> [[ReportValue]] {
        defer { statement.reset() }
        var rows: [[ReportValue]] = []
        var bytes = 0
        while try statement.step() {
            if let maxRows = limits.maxRows, rows.count >= maxRows { throw StatementInterrupted(cause: .rows(maxRows)) }
            let row = (0..<statement.columnCount).map { statement.value($0) }
            bytes += row.reduce(0) { $0 + $1.resultBytes }
            if let maxBytes = limits.maxBytes, bytes > maxBytes { throw StatementInterrupted(cause: .bytes(maxBytes)) }
            rows.append(row.map(ReportValue.init))
        }
        return rows
    }

    /// The rejected lines, oldest first (of one file, or all).
    public func rejected(file: String? = nil) throws -> GroupedReport {
        try adHoc(try QueryLibrary.sql("rejected"), parameters: ["file": QueryValue(file)])
    }
}

extension SQLValue {
    /// What the value counts towards `--sql-max-bytes`: text and blobs by their length, numbers as 8.
    fileprivate var resultBytes: Int {
        switch self {
        case .null, .emptyBlob: 0
        case .int, .double: 8
        case .text(let text): text.utf8.count
        }
    }
}
