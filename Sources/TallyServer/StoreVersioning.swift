/// Tells whether the store changed: the store's part of ETags and the answer cache's key. Two
/// equal versions must mean the same content; a version may change without the content.
public protocol StoreVersioning: Sendable {
    /// The version when it can be told without waiting on another server (SQLite's counter, a
    /// fingerprint still fresh); nil when `read(nowMs:)` must run. Called on an event loop.
    func peek(nowMs: Int64) throws -> String?
    /// Reads the version, waiting on I/O if need be; called on a worker thread.
    func read(nowMs: Int64) throws -> String
    /// The server's writer stored something (or failed part way): the next version is read
    /// anew rather than told from what was known.
    func writerStored()
}
