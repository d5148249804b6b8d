import TallyEvents

/// Applies the migrations a database has not seen yet, in order (as GRDB's `DatabaseMigrator`).
///
/// Every pending migration runs in one `BEGIN IMMEDIATE` transaction that also reads what is
/// applied, so processes creating or upgrading the same store at once take turns: the first
/// applies everything, the others wait for its commit (the busy timeout) and find nothing left.
public struct Migrator: Sendable {
    /// The migrations, oldest first.
    public var migrations: [Migration]

    /// Creates a migrator.
    public init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Identifiers of the migrations already applied to `db`, in the order they were applied.
    public func appliedIdentifiers(in db: Database) throws -> [String] {
        let exists = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tally_migrations'") ?? 0
        guard exists > 0 else { return [] }
        let statement = try db.prepare("SELECT identifier FROM tally_migrations ORDER BY rowid")
        var applied: [String] = []
        while try statement.step() {
            if let identifier = statement.text(0) { applied.append(identifier) }
        }
        return applied
    }

    /// Whether `db` lacks some migration.
    public func hasPendingMigrations(in db: Database) throws -> Bool {
        !pending(applied: try appliedIdentifiers(in: db)).isEmpty
    }

    /// Throws `StoreError.newerStore` when `db` records a migration this migrator does not
    /// know: a newer Tally wrote it, and this one cannot tell what its tables mean.
    public func refuseUnknownMigrations(in db: Database) throws {
        let known = Set(migrations.map { Bytewise($0.identifier) })
        let unknown = try appliedIdentifiers(in: db).filter { !known.contains(Bytewise($0)) }
        if let newest = unknown.last {
            throw StoreError.newerStore(path: db.path, storeVersion: newest, version: migrations.last?.identifier ?? "none")
        }
    }

    /// Applies every pending migration, all in one immediate transaction (nothing when none is
    /// pending). Throws `StoreError.newerStore` for a store with a migration it does not know.
    public func migrate(_ db: Database) throws {
        try refuseUnknownMigrations(in: db)
        guard try hasPendingMigrations(in: db) else { return }
        try db.transaction {
            try db.execute("CREATE TABLE IF NOT EXISTS tally_migrations (identifier TEXT NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
            try refuseUnknownMigrations(in: db)
            for migration in pending(applied: try appliedIdentifiers(in: db)) {
                try db.execute(migration.sql, name: "migration \(migration.identifier)")
                try migration.step?(db)
                let record = try db.prepare("INSERT INTO tally_migrations (identifier) VALUES (?)")
                try record.bind([.text(migration.identifier)])
                try record.run()
            }
        }
    }

    /// The migrations not among `applied`, in order.
    private func pending(applied: [String]) -> [Migration] {
        let applied = Set(applied.map { Bytewise($0) })
        return migrations.filter { !applied.contains(Bytewise($0.identifier)) }
    }
}
