import Foundation

/// The SQLite file that holds the events, their rollups and the rejected lines.
public final class EventStore {
    /// The connection.
    public let database: Database

    /// Opens the store for writing, creating and migrating it as needed.
    ///
    /// WAL lets readers go on while one writer ingests; `synchronous = FULL` makes every
    /// committed batch durable; 16 KiB pages suit rows appended in key order.
    public init(path: String) throws {
        database = try Database(path: path)
        try database.execute("""
            PRAGMA page_size = 16384;
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            PRAGMA cache_size = -262144;
            PRAGMA temp_store = MEMORY;
            PRAGMA wal_autocheckpoint = 16384;
            """)
        try TallySchema.migrator.migrate(database)
    }

    /// Opens an existing store read-only: every write is refused by SQLite itself.
    public init(readingAt path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.missingStore(path: path)
        }
        database = try Database(path: path, mode: .readOnly)
        try database.execute("PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;")
        if try TallySchema.migrator.hasPendingMigrations(in: database) {
            throw StoreError.notATallyStore(path: path)
        }
    }
}
