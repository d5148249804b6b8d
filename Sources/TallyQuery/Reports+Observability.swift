import TallyStore

extension Reports {
    /// Exact nearest-rank percentiles of `properties.field` of events named `event` (of one
    /// `user`, or all), per value of `properties.by` (or the event's appVersion).
    public func latency(event: String, field: String, by: String, user: String? = nil) throws -> GroupedReport {
        var rows: [[ReportValue]] = []
        var group: SQLValue?
        var values: [Double] = []
        func flush() {
            guard let group, !values.isEmpty else { return }
            func rank(_ k: Double) -> ReportValue {
                let index = Int((k / 100 * Double(values.count)).rounded(.up)) - 1
                return Self.number(values[max(0, min(values.count - 1, index))])
            }
            rows.append([ReportValue(group), .int(Int64(values.count)), rank(50), rank(90), rank(99), Self.number(values[values.count - 1])])
        }
        try run("latency_values", ["event": .text(event), "field": .text(field), "by": .text(by),
                                   "user": user.map { .text($0) } ?? .null]) { row in
            let key = row.value(0)
            if key != group {
                flush()
                group = key
                values.removeAll(keepingCapacity: true)
            }
            values.append(row.double(1))
        }
        flush()
        return GroupedReport(columns: Self.latencyColumns(field: field, by: by), rows: rows)
    }

    /// The columns of a latency report: the group key, count, p50, p90, p99 and max.
    package static func latencyColumns(field: String, by: String) -> [ReportColumn] {
        // A field named in milliseconds (`load_duration_ms`, `durationMs`) reads as a duration in tables.
        let role: ReportColumn.Role = field.hasSuffix("_ms") || field.hasSuffix("Ms") ? .milliseconds : .measure
        return [ReportColumn(by, role: .key), ReportColumn("count", role: .count)]
            + ["p50", "p90", "p99", "max"].map { ReportColumn($0, role: role) }
    }

    /// Counts of events named `event` (of one `user`, or all) per value of `by`, most frequent
    /// first; per user from the counts kept at ingest, per anything else from the events.
    public func top(event: String, by: String, limit: Int, user: String? = nil) throws -> GroupedReport {
        try Self.validate(limit: limit)
        var rows: [[ReportValue]] = []
        let query = by == "userId" ? "top_users" : "top"
        try run(query, ["event": .text(event), "by": .text(by), "limit": .int(Int64(limit)),
                        "user": user.map { .text($0) } ?? .null]) { row in
            rows.append([ReportValue(row.value(0)), .int(row.int64(1))])
        }
        return GroupedReport(columns: Self.topColumns(by: by), rows: rows)
    }

    /// Checks `top`'s row limit.
    package static func validate(limit: Int) throws {
        guard limit >= 1 else {
            throw QueryError.invalidParameter(name: "limit", message: "limit must be at least 1, got \(limit)")
        }
    }

    /// The columns of a `top` report: the value counted by, and the count.
    package static func topColumns(by: String) -> [ReportColumn] {
        [ReportColumn(by, role: .key), ReportColumn("count", role: .count)]
    }

    /// A measured value: an integer when it is one.
    package static func number(_ value: Double) -> ReportValue {
        value == value.rounded() && abs(value) < 9e15 ? .int(Int64(value)) : .double(value)
    }
}
