import TallyEvents
import TallyQuery

extension ClickHouseReports {
    /// Dislike rate with its Wilson 95 % interval per group; `topReasons` adds the K most
    /// frequent reasons of final dislikes per group.
    ///
    /// The per-group counters kept at ingest answer it (`ImpressionStates`), those of `user`
    /// alone for one user, summed into coarser groups while no impression appears in more than
    /// one group; otherwise, and under a `filter`, the events do.
    public func dislikeRate(_ grouping: DislikeGrouping, topReasons: Int, user: String?, filter: FeedFilter = FeedFilter()) throws -> GroupedReport {
        let parameters = Self.scanParameters(grouping, user: user, filter: filter, byUser: false)
        let suffix = try countersAnswer(grouping, filter: filter) ? "" : "_scan"
        let position = { Self.position($0, grouping) }
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
    /// Under a `filter` the events answer.
    public func exposures(by grouping: ExposureGrouping, user: String?, filter: FeedFilter = FeedFilter()) throws -> GroupedReport {
        let fromCounters = try filter.isEmpty && (user == nil || counter(ClickHouseRollups.sharedPairsCounter) == 0)
        let parameters = filter.parameters.merging(["by": .text(grouping.rawValue), "user": QueryValue(user)]) { $1 }
        let query = try run(fromCounters ? "exposures" : "exposures_scan", parameters)
        let rows = query.rows.map { row -> [ReportValue] in
            let group = grouping == .position ? row[0].text.flatMap { Int64($0) }.map(ReportValue.int) ?? .null : row[0]
            return [group, .int(row[1].int64), .int(row[2].int64), .int(row[3].int64), .int(row[4].int64)]
        }
        return GroupedReport(columns: ReportLogic.exposureColumns(grouping), rows: rows)
    }

    /// The model comparison's counts: per model (and position group) the exposures and dislikes
    /// of each user as `dislike-rate` counts them under `filter` (from the per-user counters
    /// where they answer `dislike-rate`, else from the events), and the dates each model served
    /// (with no filter and no user from the dates kept per model and position, else from the
    /// events).
    public func modelComparison(_ grouping: DislikeGrouping, user: String?, filter: FeedFilter) throws -> ModelComparison {
        var comparison = ModelComparison(grouping: grouping)
        let parameters = Self.scanParameters(comparison.grouping, user: user, filter: filter, byUser: true)
        let counters = try countersAnswer(comparison.grouping, filter: filter)
        // compare_counts.sql answers (exposures, dislikes, user) in columns 2-4, dislike_rate_scan.sql in 2, 4 and 6.
        let (dislikesAt, userAt) = counters ? (3, 4) : (4, 6)
        for row in try run(counters ? "compare_counts" : "dislike_rate_scan", parameters).rows {
            guard let user = row[userAt].text else { continue }
            comparison.add(model: row[0], position: Self.position(row[1], grouping), user: user,
                           exposures: row[2].int64, dislikes: row[dislikesAt].int64)
        }
        let dates: ClickHouseResult
        do {
            dates = try run(user == nil && filter.isEmpty ? "model_dates" : "compare_dates", parameters)
        } catch let error as ClickHouseError where error.code == ClickHouseError.unknownTable {
            // A database no `init`, `ingest` or `serve` of this version has opened yet.
            dates = try run("compare_dates", parameters)
        }
        for row in dates.rows {
            comparison.setDates(model: row[0], position: Self.position(row[1], grouping), first: row[2], last: row[3])
        }
        return comparison
    }

    /// The parameters of `dislike_rate_scan.sql` and its companions.
    private static func scanParameters(_ grouping: DislikeGrouping, user: String?, filter: FeedFilter, byUser: Bool) -> [String: QueryValue] {
        let lows: [String] = grouping.buckets.map { String($0.low) }
        let highs: [String] = grouping.buckets.map { String($0.high ?? -1) }
        var parameters = filter.parameters
        parameters["by_model"] = .int(grouping.byModel ? 1 : 0)
        parameters["by_position"] = .int(grouping.byPosition ? 1 : 0)
        parameters["bucket_lows"] = .text("[" + lows.joined(separator: ",") + "]")
        parameters["bucket_highs"] = .text("[" + highs.joined(separator: ",") + "]")
        parameters["user"] = QueryValue(user)
        parameters["by_user"] = .int(byUser ? 1 : 0)
        return parameters
    }

    /// A position group as the report shows it: with buckets the queries answer each bucket's
    /// 1-based number, the report its label.
    private static func position(_ value: ReportValue, _ grouping: DislikeGrouping) -> ReportValue {
        guard !grouping.buckets.isEmpty, case .int(let number) = value, number >= 1, number <= grouping.buckets.count else { return value }
        return .text(grouping.buckets[Int(number) - 1].label)
    }

    /// Whether the per-group counters kept at ingest give the dislike rate in `grouping` under
    /// `filter`: with no filter, in the groups they keep (model and position) or in coarser ones
    /// while no impression appears in more than one group.
    private func countersAnswer(_ grouping: DislikeGrouping, filter: FeedFilter) throws -> Bool {
        let fine = grouping.byModel && grouping.byPosition && grouping.buckets.isEmpty
        return try filter.isEmpty && (fine || counter(ClickHouseRollups.spanningCounter) == 0)
    }

    /// A counter kept at ingest (`rollup_counter.sql`).
    private func counter(_ name: String) throws -> Int64 {
        try run("rollup_counter", ["name": .text(name)]).rows.first?.first?.int64 ?? 0
    }
}
