import Foundation

/// The SQLite file that holds the events, their rollups and the rejected lines.
public final class EventStore {
    /// The connection.
    public let database: Database

    /// Opens the store for writing, creating and migrating it as needed.
    ///
    /// WAL lets readers go on while one writer ingests; `synchronous = FULL` makes every
    /// commit durable when it returns (`Ingestor.ingest(file:)` relaxes it for a file's
    /// batches and syncs once at the file's end); 16 KiB pages suit rows appended in key order.
    ///
    /// Processes that create or upgrade the same store at once take turns (`Migrator`). Turning a
    /// new file to WAL can find it locked without waiting for the busy timeout (SQLite does
    /// not wait where waiting could deadlock); the settings and migrations are then tried again,
    /// up to `openAttempts` times, 20 ms apart.
    public init(path: String) throws {
        isImmutable = false
        database = try Database(path: path)
        for attempt in 1... {
            do {
                try database.execute("""
                    PRAGMA page_size = 16384;
                    PRAGMA journal_mode = WAL;
                    PRAGMA synchronous = FULL;
                    PRAGMA cache_size = -65536;
                    PRAGMA temp_store = FILE;
                    PRAGMA wal_autocheckpoint = 16384;
                    """)
                try TallySchema.migrator.migrate(database)
                try database.execute("PRAGMA cache_size = -196608; PRAGMA temp_store = MEMORY;")
                return
            } catch let error as DatabaseError where error.code & 0xFF == SQLITE_BUSY_CODE && attempt < Self.openAttempts {
                usleep(20_000)
            }
        }
    }

    /// How many times `init(path:)` tries a store that another process holds locked.
    static let openAttempts = 500

    /// Whether the store was opened `immutable=1` because its folder cannot be written (see
    /// `init(readingAt:)`); the caller tells the user so.
    public let isImmutable: Bool

    /// Opens an existing store read-only: every write is refused by SQLite itself.
    ///
    /// A WAL store needs its `-shm` file, which a reader creates when missing; in a folder the
    /// reader cannot write, that fails, and the store is opened `immutable=1` instead (no locks,
    /// no `-shm`; a writer working on it at the same time would not be seen).
    public init(readingAt path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.missingStore(path: path)
        }
        do {
            database = try Self.openReading(path, mode: .readOnly)
            isImmutable = false
        } catch let error as DatabaseError where [SQLITE_CANTOPEN_CODE, SQLITE_READONLY_CODE].contains(error.code & 0xFF) {
            database = try Self.openReading(path, mode: .immutable)
            isImmutable = true
        }
    }

    private static func openReading(_ path: String, mode: Database.Mode) throws -> Database {
        let database = try Database(path: path, mode: mode)
        try database.execute("PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;")
        try TallySchema.migrator.refuseUnknownMigrations(in: database)
        if try TallySchema.migrator.hasPendingMigrations(in: database) {
            throw StoreError.notATallyStore(path: path)
        }
        return database
    }
}

/// `SQLITE_CANTOPEN` and `SQLITE_READONLY`: a file SQLite could not open or write (primary codes).
private let SQLITE_CANTOPEN_CODE: Int32 = 14
private let SQLITE_READONLY_CODE: Int32 = 8
/// `SQLITE_BUSY`: the file is locked by another connection (primary code).
private let SQLITE_BUSY_CODE: Int32 = 5
