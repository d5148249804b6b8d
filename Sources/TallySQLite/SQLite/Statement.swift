import CSQLite

/// A compiled SQL statement; bind, step, read columns, reset.
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    /// The statement's SQL.
    public let sql: String
    /// What names the statement in errors, such as `queries/learning_summary.sql`.
    public let name: String?

    init(handle: OpaquePointer, database: Database, sql: String, name: String?) {
        self.handle = handle
        self.database = database
        self.sql = sql
        self.name = name
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Number of result columns.
    public var columnCount: Int {
        Int(sqlite3_column_count(handle))
    }

    /// Name of result column `index`.
    public func columnName(_ index: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(index)))
    }

    /// Whether the statement only reads.
    public var isReadOnly: Bool {
        sqlite3_stmt_readonly(handle) != 0
    }

    /// Number of `?` / `:name` parameters.
    public var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(handle))
    }

    /// Name of parameter `index` (1-based), such as `:user`; nil for `?`.
    public func parameterName(_ index: Int) -> String? {
        sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
    }

    /// Binds values to parameters 1, 2, … after resetting the statement.
    public func bind(_ values: [SQLValue]) throws {
        reset()
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to parameter `index` (1-based).
    public func bind(_ value: SQLValue, at index: Int32) throws {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, index))
        case .int(let v): bind(v, at: index)
        case .double(let v): try check(sqlite3_bind_double(handle, index, v))
        case .text(let v): bind(v, at: index)
        case .emptyBlob: try check(sqlite3_bind_zeroblob(handle, index, 0))
        }
    }

    /// Binds an integer (hot path: no error check beyond SQLite's own range check).
    @inline(__always)
    public func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds a double, or NULL.
    @inline(__always)
    public func bind(_ value: Double?, at index: Int32) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Binds an integer, or NULL.
    @inline(__always)
    public func bind(_ value: Int64?, at index: Int32) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Binds text (copied by SQLite), or NULL.
    @inline(__always)
    public func bind(_ value: String?, at index: Int32) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { buffer in
            bindText(buffer, at: index)
        }
    }

    /// Binds UTF-8 bytes as text (copied by SQLite).
    @inline(__always)
    public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        guard let base = bytes.baseAddress else {
            sqlite3_bind_text(handle, index, "", 0, Statement.transient)
            return
        }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            _ = sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Statement.transient)
        }
    }

    /// Binds bytes as a blob, copied by SQLite unless `copying` is false: then the bytes must
    /// stay valid and unchanged until the statement is reset or bound again.
    @inline(__always)
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, copying: Bool = true) {
        guard let base = bytes.baseAddress else {
            sqlite3_bind_zeroblob(handle, index, 0)
            return
        }
        sqlite3_bind_blob(handle, index, base, Int32(bytes.count), copying ? Statement.transient : nil)
    }

    /// Binds column `column` of `row`'s current row as SQLite holds it (its type and bytes,
    /// copied by SQLite).
    @inline(__always)
    public func bind(column: Int, of row: Statement, at index: Int32) {
        sqlite3_bind_value(handle, index, sqlite3_column_value(row.handle, Int32(column)))
    }

    /// Advances; true while a row is available.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = DatabaseError(code: rc, message: database.lastErrorMessage, sql: sql, statementName: name)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring rows.
    public func run() throws {
        while try step() {}
        reset()
    }

    /// Resets for another execution, keeping the bindings.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Column `index` of the current row as an integer.
    @inline(__always)
    public func int64(_ index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// Column `index` of the current row as an Int.
    @inline(__always)
    public func int(_ index: Int) -> Int {
        Int(sqlite3_column_int64(handle, Int32(index)))
    }

    /// Column `index` of the current row as a double.
    public func double(_ index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// Column `index` of the current row as text; nil when NULL.
    public func text(_ index: Int) -> String? {
        guard let pointer = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Calls `body` with the bytes of column `index` of the current row, valid only during the call.
    public func withBlob<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let pointer = sqlite3_column_blob(handle, Int32(index))
        return try body(UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, Int32(index)))))
    }

    /// Calls `body` with the UTF-8 bytes of column `index` of the current row when it is TEXT
    /// (nil otherwise), valid only during the call: no String is made.
    @inline(__always)
    public func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        guard sqlite3_column_type(handle, Int32(index)) == SQLITE_TEXT, let pointer = sqlite3_column_text(handle, Int32(index)) else {
            return try body(nil)
        }
        return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, Int32(index)))))
    }

    /// Whether column `index` of the current row is NULL.
    public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// Column `index` of the current row, typed as SQLite stores it.
    public func value(_ index: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .int(int64(index))
        case SQLITE_FLOAT: return .double(double(index))
        case SQLITE_NULL: return .null
        case SQLITE_BLOB where sqlite3_column_bytes(handle, Int32(index)) == 0: return .emptyBlob
        default: return .text(text(index) ?? "")
        }
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw DatabaseError(code: rc, message: database.lastErrorMessage, sql: sql, statementName: name) }
    }

    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
