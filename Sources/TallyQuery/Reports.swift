import TallyEvents
import TallyStore

/// Computes every documented report (`metrics.md`) from a store, running the SQL of `queries/`.
public final class Reports {
    let database: Database
    private var statements: [String: Statement] = [:]

    /// Creates the report layer over an open store.
    public init(store: EventStore) {
        database = store.database
    }

    /// Runs bundled query `name` with named parameters; rows are handed to `body` one by one.
    func run(_ name: String, _ parameters: [String: SQLValue], _ body: (Statement) throws -> Void) throws {
        let statement: Statement
        if let cached = statements[name] {
            statement = cached
        } else {
            statement = try database.prepare(try QueryLibrary.sql(name), name: "queries/\(name).sql")
            statements[name] = statement
        }
        try statement.bind(named: parameters)
        defer { statement.reset() }
        while try statement.step() {
            try body(statement)
        }
    }

    /// The window of `days` local dates ending at today, oldest first.
    package static func window(days: Int, endingAt today: LocalDate) -> [LocalDate] {
        (0..<days).map { today.adding(days: $0 - days + 1) }
    }

    /// Checks a window length (`--days`, `days=`).
    public static func validate(days: Int) throws {
        guard (1...3660).contains(days) else {
            throw QueryError.invalidParameter(name: "days", message: "days must be 1...3660, got \(days)")
        }
    }
}
