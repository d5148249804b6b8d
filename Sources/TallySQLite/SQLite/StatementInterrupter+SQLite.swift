import CSQLite
import TallySupport

/// The SQLite side of `StatementInterrupter`: while a statement runs, SQLite calls a progress
/// handler every few thousand virtual-machine steps; it checks the limit and the cancellation, so
/// a runaway query (an endless recursive CTE, a cross join of every table) ends with
/// `StatementInterrupted` instead of holding its thread, and `cancel()` interrupts the connection.
extension StatementInterrupter {
    /// Virtual-machine steps between two checks of the limit.
    static let checkInterval: Int32 = 1000

    /// Runs `body` (which steps statements of `database`) under the limit; the clock starts now.
    ///
    /// - Throws: `StatementInterrupted` when the limit passed or `cancel()` was called, else what
    ///   `body` throws.
    public func run<T>(on database: Database, _ body: () throws -> T) throws -> T {
        nonisolated(unsafe) let handle = database.handle
        // `cancel()` calls this under the interrupter's lock, and `end()` (under the same lock)
        // runs before the connection can close: the handle is never used after it is closed.
        try begin { sqlite3_interrupt(handle) }
        sqlite3_progress_handler(handle, Self.checkInterval, { context in
            guard let context else { return 0 }
            return Unmanaged<StatementInterrupter>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            end()
        }
        do {
            return try body()
        } catch let error as DatabaseError where error.code == SQLITE_INTERRUPT {
            throw StatementInterrupted(cause: cause ?? .cancelled)
        }
    }
}
