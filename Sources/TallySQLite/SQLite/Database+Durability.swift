import CSQLite

extension Database {
    /// How much of a commit `COMMIT` waits for (`PRAGMA synchronous`).
    public enum Synchronous: String, Sendable {
        /// In WAL mode a commit survives a kill of the process but may be lost by a crash of the
        /// system or a power loss (never half of it): the write-ahead log is synced only at
        /// checkpoints and by `syncWriteAheadLog()`.
        case normal = "NORMAL"
        /// Every commit syncs the write-ahead log before it returns: it survives a power loss.
        case full = "FULL"
    }

    /// Sets `PRAGMA synchronous` for the commits that follow.
    public func setSynchronous(_ level: Synchronous) throws {
        try execute("PRAGMA synchronous = \(level.rawValue)")
    }

    /// Syncs the write-ahead log to disk, as a commit with `synchronous = FULL` does at its
    /// end: every transaction committed before the call survives a power loss once it returns.
    /// Does nothing when the connection has no log open (nothing was written through it).
    public func syncWriteAheadLog() throws {
        var file: UnsafeMutablePointer<sqlite3_file>?
        let found = sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file)
        guard found == SQLITE_OK else {
            throw DatabaseError(code: found, message: "cannot reach the write-ahead log of \(path)")
        }
        guard let file, let sync = file.pointee.pMethods?.pointee.xSync else { return }
        let rc = sync(file, SQLITE_SYNC_NORMAL)
        guard rc == SQLITE_OK else {
            throw DatabaseError(code: rc, message: "cannot sync the write-ahead log of \(path)")
        }
    }
}
