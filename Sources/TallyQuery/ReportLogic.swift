import TallyEvents

/// What every backend computes the same way around its SQL: the checks of report parameters,
/// the columns of each grouped report, and the measures derived from counts (the Wilson
/// interval, nearest-rank percentiles), so that the SQLite and ClickHouse answers agree by value.
public enum ReportLogic {
    // MARK: - Validation

    /// Checks a window length (`--days`, `days=`).
    public static func validate(days: Int) throws {
        guard (1...3660).contains(days) else {
            throw QueryError.invalidParameter(name: "days", message: "days must be 1...3660, got \(days)")
        }
    }

    /// Checks `top`'s row limit.
    public static func validate(limit: Int) throws {
        guard limit >= 1 else {
            throw QueryError.invalidParameter(name: "limit", message: "limit must be at least 1, got \(limit)")
        }
    }

    /// The window of `days` local dates ending at today, oldest first.
    package static func window(days: Int, endingAt today: LocalDate) -> [LocalDate] {
        (0..<days).map { today.adding(days: $0 - days + 1) }
    }

    // MARK: - Dislike rate

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
    package static func wilson(successes: Int64, trials: Int64) -> (ReportValue, ReportValue, ReportValue) {
        guard trials > 0 else { return (.null, .null, .null) }
        let n = Double(trials), p = Double(successes) / n, z = 1.96
        let denominator = 1 + z * z / n
        let center = (p + z * z / (2 * n)) / denominator
        let half = z * ((p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / denominator
        return (.double(p), .double(max(0, center - half)), .double(min(1, center + half)))
    }

    // MARK: - Exposures

    /// The columns of an exposure-count report grouped by `grouping`.
    package static func exposureColumns(_ grouping: ExposureGrouping) -> [ReportColumn] {
        [
            ReportColumn(grouping.key, role: .key), ReportColumn("exposures", role: .count), ReportColumn("uniqueItems", role: .count),
            ReportColumn("uniqueUsers", role: .count), ReportColumn("duplicateExposures", role: .count),
        ]
    }

    // MARK: - Observability

    /// The columns of a latency report: the group key, count, p50, p90, p99 and max.
    package static func latencyColumns(field: String, by: String) -> [ReportColumn] {
        // A field named in milliseconds (`load_duration_ms`, `durationMs`) reads as a duration in tables.
        let role: ReportColumn.Role = field.hasSuffix("_ms") || field.hasSuffix("Ms") ? .milliseconds : .measure
        return [ReportColumn(by, role: .key), ReportColumn("count", role: .count)]
            + ["p50", "p90", "p99", "max"].map { ReportColumn($0, role: role) }
    }

    /// The nearest-rank `k`-th percentile of `sorted` (ascending, not empty).
    package static func nearestRank(_ k: Double, of sorted: [Double]) -> ReportValue {
        let index = Int((k / 100 * Double(sorted.count)).rounded(.up)) - 1
        return number(sorted[max(0, min(sorted.count - 1, index))])
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
