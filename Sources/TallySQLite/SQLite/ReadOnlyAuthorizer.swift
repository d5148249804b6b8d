import CSQLite
import TallyQuery

/// What ad hoc SQL (`report sql`, `report query`, `GET /sql`) may do: read the store's own
/// tables and call side-effect-free functions. An SQLite authorizer checks every statement as it
/// is compiled; anything else is refused before it runs, with the same answer whether or not a
/// file exists, and nothing can change the connection for later statements.
public enum ReadOnlyAuthorizer {
    /// Functions that reach outside the store or change the process.
    static let refusedFunctions: Set<String> = ["load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"]

    /// Pragmas that only read; their argument, if any, is a table or index name.
    static let readingPragmas: Set<String> = [
        "table_info", "table_xinfo", "index_list", "index_info", "index_xinfo", "foreign_key_list", "foreign_key_check",
        "integrity_check", "quick_check",
    ]

    /// Pragmas that read a setting when given no argument (and would set it when given one).
    static let settingPragmas: Set<String> = [
        "table_list", "function_list", "pragma_list", "collation_list", "module_list", "compile_options", "data_version",
        "user_version", "schema_version", "application_id", "page_count", "page_size", "freelist_count", "encoding",
        "journal_mode", "foreign_keys",
    ]

    /// Why the action is refused; nil when it is allowed. `first` and `second` are the
    /// authorizer's first two texts, `schema` the database name (`main` for the store).
    public static func refusal(action: Int32, first: String?, second: String?, schema: String?) -> String? {
        switch action {
        case SQLITE_SELECT, SQLITE_RECURSIVE:
            return nil
        case SQLITE_READ:
            // With ATTACH refused, every table a statement can name is the store's own; a
            // table-valued pragma (only those without side effects exist) must be a listed one.
            guard let table = first?.lowercased(), table.hasPrefix("pragma_") else { return nil }
            let name = String(table.dropFirst("pragma_".count))
            return readingPragmas.contains(name) || settingPragmas.contains(name) ? nil : "\(table)() is not allowed in ad hoc SQL"
        case SQLITE_FUNCTION:
            let name = (second ?? "").lowercased()
            return refusedFunctions.contains(name) ? "the function \(name)() is not allowed in ad hoc SQL" : nil
        case SQLITE_PRAGMA:
            let name = (first ?? "").lowercased()
            guard schema == nil || schema == "main" else { return "only the store's own tables can be read" }
            if readingPragmas.contains(name) || (settingPragmas.contains(name) && second == nil) { return nil }
            return "PRAGMA \(name)\(second == nil ? "" : " with a value") is not allowed in ad hoc SQL"
        case SQLITE_ATTACH, SQLITE_DETACH:
            return "ATTACH and DETACH are not allowed: ad hoc SQL reads only the store's own tables"
        case SQLITE_UPDATE where first == "sqlite_master" || first == "sqlite_schema":
            // Asked while a table-valued pragma such as pragma_table_info() is set up; a real
            // UPDATE of the schema is refused as a write (and `writable_schema` as a pragma).
            return nil
        case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
            return "transactions are not allowed in ad hoc SQL: each statement runs on its own"
        default:
            return "ad hoc SQL is read-only: this statement would change the store or the connection"
        }
    }
}

/// The first refusal an authorizer gave while one statement was compiled.
private final class Refusals {
    var first: String?
}

extension Database {
    /// Compiles ad hoc SQL under `ReadOnlyAuthorizer`.
    ///
    /// - Throws: `AdHocRefused` for a statement it does not allow; `DatabaseError` for SQL that
    ///   does not compile.
    public func prepareAdHoc(_ sql: String, name: String? = nil) throws -> Statement {
        let refusals = Refusals()
        sqlite3_set_authorizer(handle, { context, action, first, second, schema, _ in
            guard let context else { return SQLITE_DENY }
            let refusals = Unmanaged<Refusals>.fromOpaque(context).takeUnretainedValue()
            guard let reason = ReadOnlyAuthorizer.refusal(action: action, first: first.map { String(cString: $0) },
                                                          second: second.map { String(cString: $0) },
                                                          schema: schema.map { String(cString: $0) }) else { return SQLITE_OK }
            if refusals.first == nil { refusals.first = reason }
            return SQLITE_DENY
        }, Unmanaged.passUnretained(refusals).toOpaque())
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        return try withExtendedLifetime(refusals) {
            do {
                return try prepare(sql, name: name)
            } catch let error as DatabaseError where error.code == SQLITE_AUTH || refusals.first != nil {
                throw AdHocRefused(reason: refusals.first ?? "not allowed in ad hoc SQL")
            }
        }
    }
}
