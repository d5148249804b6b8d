import Foundation
import TallyEvents
import TallyStore

extension Reports {
    /// Dislike rate with its Wilson 95 % interval per group; `topReasons` adds the K most
    /// frequent reasons of final dislikes per group.
    ///
    /// The per-group counters kept at ingest answer it, summed into coarser groups while no
    /// impression appears in more than one group; otherwise, and for one `user`, the events do.
    public func dislikeRate(_ grouping: DislikeGrouping, topReasons: Int = 0, user: String? = nil) throws -> GroupedReport {
        let parameters: [String: SQLValue] = [
            "by_model": .int(grouping.byModel ? 1 : 0), "by_position": .int(grouping.byPosition ? 1 : 0),
            "buckets": grouping.bucketsJSON.map { .text($0) } ?? .null, "user": user.map { .text($0) } ?? .null,
        ]
        var spanning: Int64 = 0
        try run("rollup_counter", ["name": .text("impressions_in_several_groups")]) { spanning = $0.int64(0) }
        let fine = grouping.byModel && grouping.byPosition && grouping.buckets.isEmpty
        let fromCounters = user == nil && (fine || spanning == 0)
        var reasons: [[SQLValue]: [(String, Int64)]] = [:]
        if topReasons > 0 {
            try run(fromCounters ? "dislike_reasons" : "dislike_reasons_scan", parameters) { row in
                let group = [row.value(0), row.value(1)]
                if reasons[group, default: []].count < topReasons {
                    reasons[group, default: []].append((row.text(2) ?? "", row.int64(3)))
                }
            }
        }
        let columns = Self.dislikeColumns(grouping, topReasons: topReasons)
        var rows: [[ReportValue]] = []
        try run(fromCounters ? "dislike_rate" : "dislike_rate_scan", parameters) { row in
            var values: [ReportValue] = []
            if grouping.byModel { values.append(ReportValue(row.value(0))) }
            if grouping.byPosition { values.append(ReportValue(row.value(1))) }
            values += Self.dislikeMeasures(exposures: row.int64(2), likes: row.int64(3), dislikes: row.int64(4),
                                           feedbackWithoutExposure: row.int64(5))
            if topReasons > 0 {
                values.append(Self.reasonsJSON(reasons[[row.value(0), row.value(1)]] ?? []))
            }
            rows.append(values)
        }
        return GroupedReport(columns: columns, rows: rows)
    }

    /// The columns of a dislike-rate report: its group keys, the measures, `topReasons` if asked.
    package static func dislikeColumns(_ grouping: DislikeGrouping, topReasons: Int) -> [ReportColumn] {
        var columns: [ReportColumn] = []
        if grouping.byModel { columns.append(ReportColumn("modelInfo", role: .key)) }
        if grouping.byPosition { columns.append(ReportColumn("feedPosition", role: .key)) }
        columns += [
            ReportColumn("exposures", role: .count), ReportColumn("likes", role: .count),
            ReportColumn("dislikes", role: .count), ReportColumn("dislikeRate", role: .ratio),
            ReportColumn("dislikeRateLow", role: .ratio), ReportColumn("dislikeRateHigh", role: .ratio),
            ReportColumn("feedbackWithoutExposure", role: .count),
        ]
        if topReasons > 0 { columns.append(ReportColumn("topReasons", role: .measure)) }
        return columns
    }

    /// A group's measures from its counts: the counts, the rate and its interval.
    package static func dislikeMeasures(exposures: Int64, likes: Int64, dislikes: Int64,
                                        feedbackWithoutExposure: Int64) -> [ReportValue] {
        let (rate, low, high) = wilson(successes: dislikes, trials: exposures)
        return [.int(exposures), .int(likes), .int(dislikes), rate, low, high, .int(feedbackWithoutExposure)]
    }

    /// `topReasons` of a group: `[{"reason": …, "count": …}]`, most frequent first.
    package static func reasonsJSON(_ reasons: [(String, Int64)]) -> ReportValue {
        .json("[" + reasons.map { "{\"reason\":\(JSONText.quote($0.0)),\"count\":\($0.1)}" }.joined(separator: ",") + "]")
    }

    /// Rate and Wilson score interval (z = 1.96); nulls for no trials.
    static func wilson(successes: Int64, trials: Int64) -> (ReportValue, ReportValue, ReportValue) {
        guard trials > 0 else { return (.null, .null, .null) }
        let n = Double(trials), p = Double(successes) / n, z = 1.96
        let denominator = 1 + z * z / n
        let center = (p + z * z / (2 * n)) / denominator
        let half = z * ((p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / denominator
        return (.double(p), .double(max(0, center - half)), .double(min(1, center + half)))
    }

    /// Exposure counts grouped by `day`, `page`, `item`, `model` or `position`: from the rows
    /// kept at ingest, or from the events for one `user`.
    public func exposures(by: String, user: String? = nil) throws -> GroupedReport {
        let key = try Self.exposureKey(by: by)
        var rows: [[ReportValue]] = []
        try run(user == nil ? "exposures" : "exposures_scan", ["by": .text(by), "user": user.map { .text($0) } ?? .null]) { row in
            rows.append([ReportValue(row.value(0)), .int(row.int64(1)), .int(row.int64(2)), .int(row.int64(3)), .int(row.int64(4))])
        }
        return GroupedReport(columns: Self.exposureColumns(key: key), rows: rows)
    }

    /// The group key's name for `--by day | page | item | model | position`.
    package static func exposureKey(by: String) throws -> String {
        let keys = ["day": "date", "page": "pageId", "item": "itemId", "model": "modelInfo", "position": "feedPosition"]
        guard let key = keys[by] else {
            throw QueryError.invalidParameter(name: "by", message: "by must be day, page, item, model or position, got \"\(by)\"")
        }
        return key
    }

    /// The columns of an exposure-count report grouped by `key`.
    package static func exposureColumns(key: String) -> [ReportColumn] {
        [
            ReportColumn(key, role: .key), ReportColumn("exposures", role: .count), ReportColumn("uniqueItems", role: .count),
            ReportColumn("uniqueUsers", role: .count), ReportColumn("duplicateExposures", role: .count),
        ]
    }
}
