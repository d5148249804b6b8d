import CSQLite
import TallySupport

/// The SQLite side of `StatementInterrupter`: while a statement runs, SQLite calls a progress
/// handler every few thousand virtual-machine steps; it checks the limit and the cancellation, so
/// a runaway query (an endless recursive CTE, a cross join of every table) ends with
/// `StatementInterrupted` instead of holding its thread, and `cancel()` interrupts the connection.
/// One step may still take long (an `upper()` of a long string), so no value may grow past
/// `limits.maxBytes` either (SQLite's `SQLITE_LIMIT_LENGTH`, which also bounds every row it
/// builds: a sorter's, a recursive query's queue).
extension StatementInterrupter {
    /// Virtual-machine steps between two checks of the limit.
    static let checkInterval: Int32 = 1000

    /// Runs `body` (which steps statements of `database`) under the limit; the clock starts now.
    ///
    /// - Throws: `StatementInterrupted` when the limit passed, a value grew too long or `cancel()`
    ///   was called, else what `body` throws.
    public func run<T>(on database: Database, _ body: () throws -> T) throws -> T {
        nonisolated(unsafe) let handle = database.handle
        let lengthLimit = sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, -1)
        if let maxBytes = limits.maxBytes {
            sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: maxBytes))
        }
        defer { sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, lengthLimit) }
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
        } catch let error as DatabaseError where error.code == SQLITE_TOOBIG && limits.maxBytes != nil {
            throw StatementInterrupted(cause: .bytes(limits.maxBytes ?? 0))
        }
    }
}
