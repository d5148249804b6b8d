import TallyQuery
import TallySupport

extension SQLiteReports {
    /// Runs read-only SQL with named parameters (`:name`) under `ReadOnlyAuthorizer`: a statement
    /// that writes, attaches, sets a pragma or opens a transaction is refused before it runs.
    /// `interrupter` bounds its run, its values and its result as it is read (`StatementInterrupted`
    /// when it stops it); without one nothing does.
    public func adHoc(_ sql: String, parameters: [String: QueryValue] = [:], interrupter: StatementInterrupter? = nil) throws -> GroupedReport {
        var columns: [ReportColumn] = []
        var rows: [[ReportValue]] = []
        try adHoc(sql, parameters: parameters, interrupter: interrupter, columns: { columns = $0 }, row: { rows.append($0) })
        return GroupedReport(columns: columns, rows: rows)
    }

    /// Runs `sql` as `adHoc(_:parameters:interrupter:)` does, handing each row to `row` as it is
    /// stepped; `row` runs under the interrupter (its time counts, `cancel()` stops the next step).
    public func adHoc(_ sql: String, parameters: [String: QueryValue], interrupter: StatementInterrupter?,
                      columns: ([ReportColumn]) throws -> Void, row: ([ReportValue]) throws -> Void) throws {
        let statement = try database.prepareAdHoc(sql)
        guard statement.isReadOnly else { throw QueryError.writeRefused(sql) }
        try statement.bind(named: parameters.mapValues(SQLValue.init))
        try columns((0..<statement.columnCount).map { ReportColumn(statement.columnName($0), role: .measure) })
        let bounds = interrupter ?? StatementInterrupter(timeLimit: nil, limits: .none)
        try bounds.run(on: database) {
            try Self.rows(of: statement, within: bounds.limits, row)
        }
    }

    /// Hands the rows of `statement` to `body`, stopped (and the statement reset) as soon as they
    /// come to more rows or bytes than `limits` allow.
    private static func rows(of statement: Statement, within limits: AdHocLimits, _ body: ([ReportValue]) throws -> Void) throws {
        defer { statement.reset() }
        var rows = 0
        var bytes = 0
        while try statement.step() {
            if let maxRows = limits.maxRows, rows >= maxRows { throw StatementInterrupted(cause: .rows(maxRows)) }
            let row = (0..<statement.columnCount).map { statement.value($0) }
            bytes += row.reduce(0) { $0 + $1.resultBytes }
            if let maxBytes = limits.maxBytes, bytes > maxBytes { throw StatementInterrupted(cause: .bytes(maxBytes)) }
            rows += 1
            try body(row.map(ReportValue.init))
        }
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
