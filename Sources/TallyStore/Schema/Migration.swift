/// One named, ordered step of the schema; applied once, inside a transaction.
public struct Migration: Sendable {
    /// A stable name recorded in `tally_migrations`.
    public var identifier: String
    /// The statements to run.
    public var sql: String

    /// Creates a migration.
    public init(_ identifier: String, sql: String) {
        self.identifier = identifier
        self.sql = sql
    }
}
