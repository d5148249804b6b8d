import Foundation
import TallyEvents
import TallyQuery

extension SQLiteReports {
    /// Dislike rate with its Wilson 95 % interval per group; `topReasons` adds the K most
    /// frequent reasons of final dislikes per group.
    ///
    /// The per-group counters kept at ingest answer it, summed into coarser groups while no
    /// impression appears in more than one group; otherwise, without reasons, the counters per
    /// (local date, platform, app version, model, position, user) do, under any `filter` and
    /// grouping; for one `user` or with reasons, the events do.
    public func dislikeRate(_ grouping: DislikeGrouping, topReasons: Int = 0, user: String? = nil,
                            filter: FeedFilter = FeedFilter()) throws -> GroupedReport {
        let parameters = Self.scanParameters(grouping, user: user, filter: filter, byUser: false)
        var spanning: Int64 = 0
        try run("rollup_counter", ["name": .text("impressions_in_several_groups")]) { spanning = $0.int64(0) }
        let fine = grouping.byModel && grouping.byPosition && grouping.buckets.isEmpty
        let fromCounters = user == nil && filter.isEmpty && (fine || spanning == 0)
        let bySlices = user == nil && topReasons == 0
        let query = fromCounters ? "dislike_rate" : bySlices ? "dislike_rate_models" : "dislike_rate_scan"
        var reasons: [[SQLValue]: [(String, Int64)]] = [:]
        if topReasons > 0 {
            try run(fromCounters ? "dislike_reasons" : "dislike_reasons_scan", parameters) { row in
                let group = [row.value(0), row.value(1)]
                if reasons[group, default: []].count < topReasons {
                    reasons[group, default: []].append((row.text(2) ?? "", row.int64(3)))
                }
            }
        }
        let columns = ReportLogic.dislikeColumns(grouping, topReasons: topReasons)
        var rows: [[ReportValue]] = []
        try run(query, parameters) { row in
            var values: [ReportValue] = []
            if grouping.byModel { values.append(ReportValue(row.value(0))) }
            if grouping.byPosition { values.append(ReportValue(row.value(1))) }
            values += ReportLogic.dislikeMeasures(exposures: row.int64(2), likes: row.int64(3), dislikes: row.int64(4),
                                           feedbackWithoutExposure: row.int64(5))
            if topReasons > 0 {
                values.append(ReportLogic.reasonsJSON(reasons[[row.value(0), row.value(1)]] ?? []))
            }
            rows.append(values)
        }
        return GroupedReport(columns: columns, rows: rows)
    }

    /// Exposure counts grouped by `day`, `page`, `item`, `model` or `position`: from the rows
    /// kept at ingest, those kept per slice under a `filter`, or from the events for one `user`.
    public func exposures(by grouping: ExposureGrouping, user: String? = nil, filter: FeedFilter = FeedFilter()) throws -> GroupedReport {
        var rows: [[ReportValue]] = []
        let parameters = filter.parameters.merging(["by": .text(grouping.rawValue), "user": QueryValue(user)]) { $1 }
        let columns = ReportLogic.exposureColumns(grouping)
        if user == nil && !filter.isEmpty {
            var counts = ExposureSliceCounts()
            try run("exposures_slices", parameters) { counts.add($0) }
            return GroupedReport(columns: columns, rows: counts.rows)
        }
        try run(user == nil ? "exposures" : "exposures_scan", parameters) { row in
            rows.append([ReportValue(row.value(0)), .int(row.int64(1)), .int(row.int64(2)), .int(row.int64(3)), .int(row.int64(4))])
        }
        return GroupedReport(columns: columns, rows: rows)
    }

    /// The model comparison's counts: per model (and position group) the exposures and dislikes
    /// of each user as `dislike-rate` counts them under `filter`, and the dates each model served.
    public func modelComparison(_ grouping: DislikeGrouping, user: String?, filter: FeedFilter) throws -> ModelComparison {
        var comparison = ModelComparison(grouping: grouping)
        let parameters = Self.scanParameters(comparison.grouping, user: user, filter: filter, byUser: true)
        let bySlices = user == nil  // the slices' counters are kept for all users together
        // compare_counts.sql answers (exposures, dislikes, user) in columns 2-4, dislike_rate_scan.sql in 2, 4 and 6.
        let (dislikesAt, userAt) = bySlices ? (3, 4) : (4, 6)
        try run(bySlices ? "compare_counts" : "dislike_rate_scan", parameters) { row in
            guard let user = row.text(userAt) else { return }
            comparison.add(model: ReportValue(row.value(0)), position: ReportValue(row.value(1)), user: user,
                           exposures: row.int64(2), dislikes: row.int64(dislikesAt))
        }
        try run(bySlices ? "compare_dates_models" : "compare_dates", parameters) { row in
            comparison.setDates(model: ReportValue(row.value(0)), position: ReportValue(row.value(1)),
                                first: ReportValue(row.value(2)), last: ReportValue(row.value(3)))
        }
        return comparison
    }

    /// The parameters of `dislike_rate_scan.sql` and its companions.
    private static func scanParameters(_ grouping: DislikeGrouping, user: String?, filter: FeedFilter, byUser: Bool) -> [String: QueryValue] {
        filter.parameters.merging([
            "by_model": .int(grouping.byModel ? 1 : 0), "by_position": .int(grouping.byPosition ? 1 : 0),
            "buckets": QueryValue(grouping.bucketsJSON), "user": QueryValue(user), "by_user": .int(byUser ? 1 : 0),
        ]) { $1 }
    }
}
