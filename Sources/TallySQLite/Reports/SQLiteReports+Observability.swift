import TallyQuery

extension SQLiteReports {
    /// Exact nearest-rank percentiles of `properties.field` of events named `event` (of one
    /// `user`, or all), per value of `properties.by` (or the event's appVersion), the groups in
    /// the order of SQLite's `ORDER BY` with no value last.
    ///
    /// The events' properties are read as stored (`latency_values.sql`) and the two members taken
    /// from the text by `LatencyScanner` where its answer is certainly SQLite's; every other event
    /// is answered by SQLite's JSON functions (`latency_row.sql`), so the answer is theirs.
    public func latency(event: String, field: String, by: String, user: String? = nil) throws -> GroupedReport {
        let scanner = LatencyScanner(field: field, by: by)
        let byAppVersion = by == "appVersion" || by == "app_version"
        let single = try prepared("latency_row")
        try single.bind(named: ["field": .text(field), "by": .text(by)])
        let properties = single.parameterIndex("properties"), appVersion = single.parameterIndex("app_version")
        var groups = LatencyGroups()
        try run("latency_values", ["event": .text(event), "user": QueryValue(user)]) { row in
            let read = row.withText(0) { text -> Bool in
                guard let text, let reading = scanner.read(text) else { return false }
                guard let value = reading.value.map(Double.init) else { return true }
                switch reading.group {
                case .int(let key):
                    groups.add(value, key: .int(key))
                case .text(let range):
                    groups.add(value, text: UnsafeBufferPointer(rebasing: text[range]))
                case .none where !byAppVersion || row.isNull(1):
                    groups.add(value, key: .null)
                case .none:
                    return row.withText(1) { version in
                        guard let version else { return false }
                        groups.add(value, text: version)
                        return true
                    }
                }
                return true
            }
            guard !read else { return }
            single.reset()
            single.bind(column: 0, of: row, at: properties)
            single.bind(column: 1, of: row, at: appVersion)
            while try single.step() {
                groups.add(single.double(1), key: Self.groupKey(single.value(0)))
            }
        }
        single.reset()
        let rows = groups.groups().sorted { Self.precedes($0.key, $1.key) }.map { group, values -> [ReportValue] in
            let sorted = LatencyGroups.sorted(values)
            return [ReportValue(group), .int(Int64(sorted.count))] + [50, 90, 99, 100].map { ReportLogic.nearestRank($0, of: sorted) }
        }
        return GroupedReport(columns: ReportLogic.latencyColumns(field: field, by: by), rows: rows)
    }

    /// Whether group key `a` comes before `b` as SQLite's `ORDER BY x IS NULL, x` puts them:
    /// numbers by value, then texts by their bytes (the `BINARY` collation), then blobs, NULL last.
    static func precedes(_ a: SQLValue, _ b: SQLValue) -> Bool {
        func rank(_ value: SQLValue) -> Int {
            switch value {
            case .int, .double: 0
            case .text: 1
            case .emptyBlob: 2
            case .null: 3
            }
        }
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.int(let x), .double(let y)): return Double(x) < y
        case (.double(let x), .int(let y)): return x < Double(y)
        case (.double(let x), .double(let y)): return x < y
        case (.text(let x), .text(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        default: return rank(a) < rank(b)
        }
    }

    /// Counts of events named `event` (of one `user`, or all) per value of `by`, most frequent
    /// first; per user from the counts kept at ingest, per anything else from the events.
    public func top(event: String, by: String, limit: Int, user: String? = nil) throws -> GroupedReport {
        try ReportLogic.validate(limit: limit)
        var rows: [[ReportValue]] = []
        let query = by == "userId" ? "top_users" : "top"
        try run(query, ["event": .text(event), "by": .text(by), "limit": .int(Int64(limit)),
                        "user": QueryValue(user)]) { row in
            rows.append([ReportValue(Self.groupKey(row.value(0))), .int(row.int64(1))])
        }
        return GroupedReport(columns: ReportLogic.topColumns(by: by), rows: rows)
    }

    /// A group key with one form per number: a whole number is the integer whatever its JSON
    /// text (`0`, `-0`, `0.0`, `0e5` are `0`), as JSON prints it and as ClickHouse's
    /// `groupValue` answers; any other value as it is.
    static func groupKey(_ value: SQLValue) -> SQLValue {
        if case .double(let number) = value, case .int(let whole) = ReportLogic.number(number) {
            return .int(whole)
        }
        return value
    }
}
