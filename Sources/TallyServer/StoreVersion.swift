import NIOConcurrencyHelpers
import TallySQLite

/// A number that changes whenever anything commits to the store, this server's writer or
/// another process (`report ingest`): SQLite's `PRAGMA data_version` read on one connection
/// kept for that alone (the value is per connection, so one connection gives one sequence).
final class StoreVersion: StoreVersioning {
    private let connection: NIOLockedValueBox<UncheckedStatement>

    private struct UncheckedStatement: @unchecked Sendable {
        let database: Database
        let statement: Statement
    }

    /// Opens a read-only connection to the store at `path`.
    init(path: String) throws {
        let store = try EventStore(readingAt: path)
        connection = NIOLockedValueBox(UncheckedStatement(database: store.database,
                                                          statement: try store.database.prepare("PRAGMA data_version")))
    }

    /// The current version; a few microseconds.
    func current() throws -> Int64 {
        try connection.withLockedValue { connection in
            defer { connection.statement.reset() }
            _ = try connection.statement.step()
            return connection.statement.int64(0)
        }
    }

    /// Always known at once: reading the counter takes microseconds.
    func peek(nowMs: Int64) throws -> String? {
        String(try current())
    }

    /// The counter.
    func read(nowMs: Int64) throws -> String {
        String(try current())
    }

    /// Nothing to do: the counter sees every commit.
    func writerStored() {}
}
