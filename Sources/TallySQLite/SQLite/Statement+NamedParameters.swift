import CSQLite

extension Statement {
    /// Names of the statement's parameters without their prefix (`:user` → `user`), in order.
    public var parameterNames: [String] {
        (0..<parameterCount).compactMap { parameterName($0 + 1).map { String($0.dropFirst()) } }
    }

    /// The 1-based index of parameter `:name`, or 0 when the statement has none of that name.
    public func parameterIndex(_ name: String) -> Int32 {
        sqlite3_bind_parameter_index(handle, ":" + name)
    }

    /// Resets, then binds each `:name`, `@name` or `$name` parameter from `values`; a parameter
    /// missing from `values` is NULL, which the documented queries read as "all".
    public func bind(named values: [String: SQLValue]) throws {
        reset()
        for index in stride(from: 1, through: parameterCount, by: 1) {
            let name = parameterName(index).map { String($0.dropFirst()) } ?? ""
            try bind(values[name] ?? .null, at: Int32(index))
        }
    }

    /// Every remaining row, each as its column values.
    public func allRows() throws -> [[SQLValue]] {
        var rows: [[SQLValue]] = []
        let count = columnCount
        while try step() {
            rows.append((0..<count).map { value($0) })
        }
        reset()
        return rows
    }
}
