import TallyQuery

extension SQLiteReports {
    /// Exact nearest-rank percentiles of `properties.field` of events named `event` (of one
    /// `user`, or all), per value of `properties.by` (or the event's appVersion).
    public func latency(event: String, field: String, by: String, user: String? = nil) throws -> GroupedReport {
        var rows: [[ReportValue]] = []
        var group: SQLValue?
        var values: [Double] = []
        func flush() {
            guard let group, !values.isEmpty else { return }
            rows.append([ReportValue(group), .int(Int64(values.count))]
                        + [50, 90, 99, 100].map { ReportLogic.nearestRank($0, of: values) })
        }
        try run("latency_values", ["event": .text(event), "field": .text(field), "by": .text(by),
                                   "user": QueryValue(user)]) { row in
            let key = Self.groupKey(row.value(0))
            if key != group {
                flush()
                group = key
                values.removeAll(keepingCapacity: true)
            }
            values.append(row.double(1))
        }
        flush()
        return GroupedReport(columns: ReportLogic.latencyColumns(field: field, by: by), rows: rows)
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
