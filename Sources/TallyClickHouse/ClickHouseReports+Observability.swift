import TallyQuery

extension ClickHouseReports {
    /// Exact nearest-rank percentiles of `properties.field` of events named `event` (of one
    /// `user`, or all), per value of `properties.by` (or the event's appVersion), computed on the server.
    public func latency(event: String, field: String, by: String, user: String?) throws -> GroupedReport {
        let result = try run("latency", ["event": .text(event), "field": .text(field), "by": .text(by), "user": QueryValue(user)])
        let rows = result.rows.map { row -> [ReportValue] in
            [Self.groupValue(number: row[0], text: row[1]), .int(row[2].int64)]
                + row[3...6].map { ReportLogic.number($0.double ?? 0) }
        }
        return GroupedReport(columns: ReportLogic.latencyColumns(field: field, by: by), rows: rows)
    }

    /// Counts of events named `event` (of one `user`, or all) per value of `by`, most frequent
    /// first; per user from the rollup (`top_users.sql`), per anything else from the events.
    public func top(event: String, by: String, limit: Int, user: String?) throws -> GroupedReport {
        try ReportLogic.validate(limit: limit)
        let parameters: [String: QueryValue] = ["event": .text(event), "limit": .int(Int64(limit)), "user": QueryValue(user)]
        let rows: [[ReportValue]]
        if by == "userId" {
            rows = try run("top_users", parameters).rows.map { [$0[0], .int($0[1].int64)] }
        } else {
            rows = try run("top", parameters.merging(["by": .text(by)]) { $1 }).rows
                .map { [Self.groupValue(number: $0[0], text: $0[1]), .int($0[2].int64)] }
        }
        return GroupedReport(columns: ReportLogic.topColumns(by: by), rows: rows)
    }

    /// A property value as a group key: the number when it is one (an integer when whole), else the text.
    static func groupValue(number: ReportValue, text: ReportValue) -> ReportValue {
        number.double.map(ReportLogic.number) ?? text
    }
}
