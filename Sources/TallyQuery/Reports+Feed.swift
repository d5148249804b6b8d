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
        var rows: [[ReportValue]] = []
        try run(fromCounters ? "dislike_rate" : "dislike_rate_scan", parameters) { row in
            var values: [ReportValue] = []
            if grouping.byModel { values.append(ReportValue(row.value(0))) }
            if grouping.byPosition { values.append(ReportValue(row.value(1))) }
            let exposures = row.int64(2), likes = row.int64(3), dislikes = row.int64(4)
            let (rate, low, high) = Self.wilson(successes: dislikes, trials: exposures)
            values += [.int(exposures), .int(likes), .int(dislikes), rate, low, high, .int(row.int64(5))]
            if topReasons > 0 {
                let list = reasons[[row.value(0), row.value(1)]] ?? []
                values.append(.json("[" + list.map { "{\"reason\":\(JSONText.quote($0.0)),\"count\":\($0.1)}" }.joined(separator: ",") + "]"))
            }
            rows.append(values)
        }
        return GroupedReport(columns: columns, rows: rows)
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
        let keys = ["day": "date", "page": "pageId", "item": "itemId", "model": "modelInfo", "position": "feedPosition"]
        guard let key = keys[by] else {
            throw QueryError.invalidParameter(name: "by", message: "by must be day, page, item, model or position, got \"\(by)\"")
        }
        var rows: [[ReportValue]] = []
        try run(user == nil ? "exposures" : "exposures_scan", ["by": .text(by), "user": user.map { .text($0) } ?? .null]) { row in
            rows.append([ReportValue(row.value(0)), .int(row.int64(1)), .int(row.int64(2)), .int(row.int64(3)), .int(row.int64(4))])
        }
        return GroupedReport(columns: [
            ReportColumn(key, role: .key), ReportColumn("exposures", role: .count), ReportColumn("uniqueItems", role: .count),
            ReportColumn("uniqueUsers", role: .count), ReportColumn("duplicateExposures", role: .count),
        ], rows: rows)
    }
}
