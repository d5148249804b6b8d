import TallyEvents
import TallyQuery

extension ClickHouseReports {
    /// Dislike rate with its Wilson 95 % interval per group; `topReasons` adds the K most
    /// frequent reasons of final dislikes per group.
    ///
    /// The per-group counters kept at ingest answer it (`ImpressionStates`), those of `user`
    /// alone for one user, summed into coarser groups while no impression appears in more than
    /// one group; otherwise the events do, exactly where the global report reads them.
    public func dislikeRate(_ grouping: DislikeGrouping, topReasons: Int, user: String?) throws -> GroupedReport {
        var parameters: [String: QueryValue] = [
            "by_model": .int(grouping.byModel ? 1 : 0), "by_position": .int(grouping.byPosition ? 1 : 0),
            "bucket_lows": .text("[" + grouping.buckets.map { String($0.low) }.joined(separator: ",") + "]"),
            "bucket_highs": .text("[" + grouping.buckets.map { String($0.high ?? -1) }.joined(separator: ",") + "]"),
        ]
        let fine = grouping.byModel && grouping.byPosition && grouping.buckets.isEmpty
        let fromCounters = try fine || counter(ClickHouseRollups.spanningCounter) == 0
        parameters["user"] = QueryValue(user)
        let suffix = fromCounters ? "" : "_scan"
        // With buckets the query answers each bucket's 1-based number; the report shows its label.
        func position(_ value: ReportValue) -> ReportValue {
            guard !grouping.buckets.isEmpty, case .int(let number) = value, number >= 1, number <= grouping.buckets.count else { return value }
            return .text(grouping.buckets[Int(number) - 1].label)
        }
        var reasons: [[Bytewise<String>]: [(String, Int64)]] = [:]
        func group(_ row: [ReportValue]) -> [Bytewise<String>] { [Bytewise(String(describing: row[0])), Bytewise(String(describing: row[1]))] }
        if topReasons > 0 {
            for row in try run("dislike_reasons" + suffix, parameters).rows where reasons[group(row), default: []].count < topReasons {
                reasons[group(row), default: []].append((row[2].text ?? "", row[3].int64))
            }
        }
        var rows: [[ReportValue]] = []
        for row in try run("dislike_rate" + suffix, parameters).rows {
            var values: [ReportValue] = []
            if grouping.byModel { values.append(row[0]) }
            if grouping.byPosition { values.append(position(row[1])) }
            values += ReportLogic.dislikeMeasures(exposures: row[2].int64, likes: row[3].int64, dislikes: row[4].int64,
                                              feedbackWithoutExposure: row[5].int64)
            if topReasons > 0 {
                values.append(ReportLogic.reasonsJSON(reasons[group(row)] ?? []))
            }
            rows.append(values)
        }
        return GroupedReport(columns: ReportLogic.dislikeColumns(grouping, topReasons: topReasons), rows: rows)
    }

    /// Exposure counts grouped by `day`, `page`, `item`, `model` or `position`: from the counts
    /// kept at ingest (`ExposurePairs`), for one `user` those kept per user, or from the user's
    /// events when some pair has events of several users (the per-user counts give each pair to
    /// the user of its first exposure; the events answer, as on SQLite, with the user's own).
    public func exposures(by grouping: ExposureGrouping, user: String?) throws -> GroupedReport {
        let fromCounters = try user == nil || counter(ClickHouseRollups.sharedPairsCounter) == 0
        let query = try run(fromCounters ? "exposures" : "exposures_scan", ["by": .text(grouping.rawValue), "user": QueryValue(user)])
        let rows = query.rows.map { row -> [ReportValue] in
            let group = grouping == .position ? row[0].text.flatMap { Int64($0) }.map(ReportValue.int) ?? .null : row[0]
            return [group, .int(row[1].int64), .int(row[2].int64), .int(row[3].int64), .int(row[4].int64)]
        }
        return GroupedReport(columns: ReportLogic.exposureColumns(grouping), rows: rows)
    }

    /// A counter kept at ingest (`rollup_counter.sql`).
    private func counter(_ name: String) throws -> Int64 {
        try run("rollup_counter", ["name": .text(name)]).rows.first?.first?.int64 ?? 0
    }
}
