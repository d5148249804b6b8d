import CSQLite
import CSQLiteConfig

/// One SQLite connection, used from one thread at a time.
///
/// A thin layer over the C API: prepared statements, transactions and errors that name the SQL.
public final class Database {
    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read and write, creating the file when missing.
        case readWrite
        /// Read only: any write fails (`SQLITE_READONLY`), the file must exist.
        case readOnly
        /// Read only, without locks or a `-shm` file (`immutable=1`): for a file nothing changes
        /// while it is open, in a folder the reader cannot write. A `-wal` file is not read.
        case immutable
    }

    let handle: OpaquePointer
    /// The path of the database file.
    public let path: String

    /// Library-wide settings, applied once before the first connection opens.
    private static let configured: Int32 = tally_sqlite_configure()

    /// Opens (or creates, in `.readWrite`) the database at `path`.
    public init(path: String, mode: Mode = .readWrite) throws {
        _ = Self.configured
        var db: OpaquePointer?
        let flags = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        }
        let rc = sqlite3_open_v2(mode == .immutable ? Self.immutableURI(path) : path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw DatabaseError(code: rc, message: message)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// `file:PATH?immutable=1`, with the characters a URI path cannot hold escaped.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x21, 0x7F...:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            default:
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// Runs one or more statements that return no rows; `name` names them in errors.
    public func execute(_ sql: String, name: String? = nil) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw DatabaseError(code: rc, message: message, sql: sql, statementName: name)
        }
    }

    /// Compiles one statement; `name` (such as `queries/learning_summary.sql`) names it in errors.
    public func prepare(_ sql: String, name: String? = nil) throws -> Statement {
        var statement: OpaquePointer?
        let (rc, trailing) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            let rest = tail.map { String(cString: $0) } ?? ""
            return (rc, !rest.allSatisfy(\.isWhitespace) && !rest.hasPrefix(";"))
        }
        guard rc == SQLITE_OK, let statement else {
            throw DatabaseError(code: rc, message: lastErrorMessage, sql: sql, statementName: name)
        }
        if trailing {
            sqlite3_finalize(statement)
            throw DatabaseError(code: SQLITE_MISUSE, message: "only one statement can be prepared at a time", sql: sql, statementName: name)
        }
        return Statement(handle: statement, database: self, sql: sql, name: name)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int {
        Int(sqlite3_changes(handle))
    }

    /// The first column of the first row of `sql`, as an integer.
    public func scalarInt(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return statement.isNull(0) ? nil : statement.int64(0)
    }

    var lastErrorMessage: String {
        String(cString: sqlite3_errmsg(handle))
    }
}

extension String {
    /// The string with `0`s before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
