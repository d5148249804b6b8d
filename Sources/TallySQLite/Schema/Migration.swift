/// One named, ordered step of the schema; applied once, inside a transaction.
public struct Migration: Sendable {
    /// A stable name recorded in `tally_migrations`.
    public var identifier: String
    /// The statements to run.
    public var sql: String
    /// Work SQL cannot express (run after `sql`, in the same transaction), or nil.
    public var step: (@Sendable (Database) throws -> Void)?

    /// Creates a migration.
    public init(_ identifier: String, sql: String, step: (@Sendable (Database) throws -> Void)? = nil) {
        self.identifier = identifier
        self.sql = sql
        self.step = step
    }
}
