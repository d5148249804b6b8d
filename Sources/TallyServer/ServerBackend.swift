import TallyIngest
import TallyQuery
import TallySQLite

/// The store `report serve` reads and writes, given to the server by whoever starts it: the
/// server itself speaks only `ReportBackend`, `EventIngesting` and `StoreVersioning`, so it works
/// the same over SQLite (`SQLiteServerBackend`) and over any other backend the caller links.
public protocol ServerBackend: Sendable {
    /// A report layer for the reader pool; each one is used by one thread at a time.
    func makeReports() throws -> any ReportBackend
    /// The ingestor of the server's one writer, used on the writer's thread only. Called once,
    /// first: it may create the store.
    func makeIngestor() throws -> any EventIngesting
    /// How the server tells that the store changed (ETags, the answer cache, `/healthz`).
    func makeVersioning() throws -> any StoreVersioning
    /// The message of an ad hoc statement's failure that is the statement's own fault (syntax,
    /// unknown table or column), for a 400; nil for any other error.
    func statementError(_ error: any Error) -> String?
    /// The store's size on disk in bytes (`/metrics`), nil when it cannot be told; called on a
    /// worker thread.
    func storeBytes() throws -> Int64?
}
