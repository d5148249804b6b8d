/// Applies the migrations a database has not seen yet, in order (as GRDB's `DatabaseMigrator`).
public struct Migrator: Sendable {
    /// The migrations, oldest first.
    public var migrations: [Migration]

    /// Creates a migrator.
    public init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Identifiers of the migrations already applied to `db`.
    public func appliedIdentifiers(in db: Database) throws -> Set<String> {
        let exists = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tally_migrations'") ?? 0
        guard exists > 0 else { return [] }
        let statement = try db.prepare("SELECT identifier FROM tally_migrations")
        var applied: Set<String> = []
        while try statement.step() {
            if let identifier = statement.text(0) { applied.insert(identifier) }
        }
        return applied
    }

    /// Whether `db` lacks some migration.
    public func hasPendingMigrations(in db: Database) throws -> Bool {
        let applied = try appliedIdentifiers(in: db)
        return migrations.contains { !applied.contains($0.identifier) }
    }

    /// Applies every pending migration, each in its own transaction.
    public func migrate(_ db: Database) throws {
        try db.execute("CREATE TABLE IF NOT EXISTS tally_migrations (identifier TEXT NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
        let applied = try appliedIdentifiers(in: db)
        for migration in migrations where !applied.contains(migration.identifier) {
            try db.transaction {
                try db.execute(migration.sql, name: "migration \(migration.identifier)")
                try migration.step?(db)
                let record = try db.prepare("INSERT INTO tally_migrations (identifier) VALUES (?)")
                try record.bind([.text(migration.identifier)])
                try record.run()
            }
        }
    }
}
