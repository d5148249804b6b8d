import Foundation
import TallyIngest
import TallyQuery
import TallySQLite

/// `report serve` over a SQLite store: read-only connections for the readers, one `Ingestor`
/// for the writer, and `PRAGMA data_version` for the store's version.
public struct SQLiteServerBackend: ServerBackend {
    /// The store file; created and migrated when missing.
    public let path: String

    /// A backend over the store at `path`.
    public init(path: String) {
        self.path = path
    }

    /// A read-only connection's reports.
    public func makeReports() throws -> any ReportBackend {
        SQLiteReports(store: try EventStore(readingAt: path))
    }

    /// An ingestor over a read-write connection (opening it creates and migrates the store).
    public func makeIngestor() throws -> any EventIngesting {
        try Ingestor(store: try EventStore(path: path))
    }

    /// `PRAGMA data_version` on a connection of its own.
    public func makeVersioning() throws -> any StoreVersioning {
        try StoreVersion(path: path)
    }

    /// SQLite's own message for a statement it could not prepare or run.
    public func statementError(_ error: any Error) -> String? {
        (error as? DatabaseError).map { "\($0)" }
    }

    /// The store file and its write-ahead log.
    public func storeBytes() throws -> Int64? {
        [path, path + "-wal"].reduce(0) { total, file in
            total + (((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
