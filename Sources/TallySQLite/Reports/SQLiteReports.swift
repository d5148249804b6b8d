import TallyEvents
import TallyQuery

/// The report backend over the embedded SQLite store: computes every documented report
/// (`metrics.md`) by running the SQL of `queries/`.
public final class SQLiteReports: ReportBackend {
    let database: Database
    private var statements: [String: Statement] = [:]

    /// Creates the report layer over an open store.
    public init(store: EventStore) {
        database = store.database
    }

    /// Runs bundled query `name` with named parameters; rows are handed to `body` one by one.
    /// A parameter of the query missing from `parameters` throws (strict binding, as GRDB's
    /// `setArguments`): bound as NULL it would read as "all users".
    func run(_ name: String, _ parameters: [String: QueryValue], _ body: (Statement) throws -> Void) throws {
        let statement = try prepared(name)
        if let missing = statement.parameterNames.first(where: { parameters[$0] == nil }) {
            throw QueryError.invalidParameter(name: missing, message: "queries/\(name).sql takes :\(missing), which was not given")
        }
        try statement.bind(named: parameters.mapValues(SQLValue.init))
        defer { statement.reset() }
        while try statement.step() {
            try body(statement)
        }
    }

    /// Bundled query `name`, compiled once per report layer.
    func prepared(_ name: String) throws -> Statement {
        if let cached = statements[name] {
            return cached
        }
        let statement = try database.prepare(try QueryLibrary.sql(name), name: "queries/\(name).sql")
        statements[name] = statement
        return statement
    }

    /// The SQLite text of `queries/NAME.sql`.
    public func savedQuery(_ name: String) throws -> String {
        try QueryLibrary.sql(name)
    }

    /// The rows of `queries/NAME.sql` with `parameters`.
    public func savedRows(_ name: String, parameters: [String: QueryValue]) throws -> [[ReportValue]] {
        var rows: [[ReportValue]] = []
        try run(name, parameters) { row in
            rows.append((0..<row.columnCount).map { ReportValue(row.value($0)) })
        }
        return rows
    }

    /// Today in the report's zone.
    public func localToday(_ context: ReportContext) throws -> LocalDate {
        try today(context)
    }
}

// MARK: - SQLite values

extension SQLValue {
    /// The SQLite value of a query parameter.
    init(_ value: QueryValue) {
        switch value {
        case .null: self = .null
        case .int(let v): self = .int(v)
        case .double(let v): self = .double(v)
        case .text(let v): self = .text(v)
        }
    }
}

extension ReportValue {
    /// The report value of an SQL value; the empty blob that stands for "none" in rollup keys is null.
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .int(let v): self = .int(v)
        case .double(let v): self = .double(v)
        case .text(let v): self = .text(v)
        case .emptyBlob: self = .null
        }
    }
}
