import TallyEvents

extension ReportBackend {
    /// Retention by cohort day (docs/decisions.md): for each local date D of the `days`-day
    /// window ending today, the users active (any reading event) on D and the share of them
    /// active again on D+1, D+7 and D+30; a share is null while its day is after today, or when
    /// D had no users. From saved query `retention` in the backend's dialect.
    public func retention(_ context: ReportContext, days: Int) throws -> GroupedReport {
        try ReportLogic.validate(days: days)
        let today = try localToday(context)
        let window = ReportLogic.window(days: days, endingAt: today)
        var counts: [LocalDate: [Int64]] = [:]
        let parameters: [String: QueryValue] = ["user": QueryValue(context.user), "first": .text(window[0].description), "last": .text(today.description)]
        for row in try savedRows("retention", parameters: parameters) {
            guard case .text(let text) = row[0], let date = LocalDate(iso: text) else { continue }
            counts[date] = row.dropFirst().map(Self.integer)
        }
        let rows = window.map { date -> [ReportValue] in
            let count = counts[date] ?? [0, 0, 0, 0]
            func share(after offset: Int, _ retained: Int64) -> ReportValue {
                guard count[0] > 0, date.adding(days: offset) <= today else { return .null }
                return .double(Double(retained) / Double(count[0]))
            }
            return [.text(date.description), .int(count[0]), share(after: 1, count[1]), share(after: 7, count[2]), share(after: 30, count[3])]
        }
        let columns = [ReportColumn("date", role: .key), ReportColumn("users", role: .count),
                       ReportColumn("day1", role: .ratio), ReportColumn("day7", role: .ratio), ReportColumn("day30", role: .ratio)]
        return GroupedReport(columns: columns, rows: rows)
    }

    /// A count as SQL gives it back: an integer, or its text (ClickHouse's 64-bit integers).
    private static func integer(_ value: ReportValue) -> Int64 {
        switch value {
        case .int(let v): v
        case .double(let v): Int64(exactly: v) ?? 0
        case .text(let v): Int64(v) ?? 0
        case .null, .json: 0
        }
    }
}
