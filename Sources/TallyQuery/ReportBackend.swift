import TallyEvents
import TallySupport

/// Where reports are computed: the embedded SQLite store (`SQLiteReports`) or a ClickHouse server.
/// Every backend answers with the same model values, so rendering is shared and two backends'
/// numbers compare by value (`metrics.md` defines them all).
public protocol ReportBackend: AnyObject {
    /// The learning summary.
    func summary(_ context: ReportContext) throws -> LearningSummary
    /// Active seconds per day of the `days`-day window ending today, with the previous period's total.
    func trend(_ context: ReportContext, days: Int) throws -> TrendReport
    /// One cell per day of the `days`-day window ending today, leveled by quartiles.
    func heatmap(_ context: ReportContext, days: Int) throws -> HeatmapReport
    /// The most recently read material not marked as read; nil when there is none.
    func continueLearning(_ context: ReportContext) throws -> ContinueLearning?
    /// How far the user (or everyone) got in `materialId`.
    func progress(_ context: ReportContext, materialId: String) throws -> ReadingProgress
    /// Dislike rate with its Wilson 95 % interval per group, and the top reasons when `topReasons` > 0,
    /// over the feed events `filter` keeps.
    func dislikeRate(_ grouping: DislikeGrouping, topReasons: Int, user: String?, filter: FeedFilter) throws -> GroupedReport
    /// Exposure counts grouped by `day`, `page`, `item`, `model` or `position`, over the events `filter` keeps.
    func exposures(by: ExposureGrouping, user: String?, filter: FeedFilter) throws -> GroupedReport
    /// The model comparison's counts over the feed events `filter` keeps: per model (and
    /// position group) each user's exposures and dislikes as `dislike-rate` counts them, and the
    /// dates each model served. `compare` computes the report from them.
    func modelComparison(_ grouping: DislikeGrouping, user: String?, filter: FeedFilter) throws -> ModelComparison
    /// Exact nearest-rank percentiles of `properties.field` of events named `event`, per value of `by`.
    func latency(event: String, field: String, by: String, user: String?) throws -> GroupedReport
    /// Counts of events named `event` per value of `by`, most frequent first.
    func top(event: String, by: String, limit: Int, user: String?) throws -> GroupedReport
    /// Runs read-only SQL in the backend's own dialect with named parameters, reading the store's
    /// own tables only; `interrupter` bounds its run (its time limit; SQLite also its `cancel()`).
    func adHoc(_ sql: String, parameters: [String: QueryValue], interrupter: StatementInterrupter?) throws -> GroupedReport
    /// Runs `sql` as `adHoc(_:parameters:interrupter:)` does, handing over its columns once and
    /// then each row as it is read, so a long result is never held whole (what `columns` or `row`
    /// throws stops the statement and is rethrown).
    func adHoc(_ sql: String, parameters: [String: QueryValue], interrupter: StatementInterrupter?,
               columns: ([ReportColumn]) throws -> Void, row: ([ReportValue]) throws -> Void) throws
    /// The rejected lines (of one file, or all).
    func rejected(file: String?) throws -> GroupedReport
    /// The text of the saved query `name` in this backend's dialect (`queries/NAME.sql`).
    func savedQuery(_ name: String) throws -> String
    /// The rows of saved query `name` in this backend's dialect, with `parameters`: what a
    /// report of the catalog's generic path reads (`ReportDefinition.rows`).
    func savedRows(_ name: String, parameters: [String: QueryValue]) throws -> [[ReportValue]]
    /// Today in the report's zone: `tz`, else the user's newest reading event's offset, else UTC.
    func localToday(_ context: ReportContext) throws -> LocalDate
}

// MARK: - Ad hoc rows

extension ReportBackend {
    /// For a backend that reads a result whole (ClickHouse's answer over HTTP): its rows handed
    /// over once it has them all.
    public func adHoc(_ sql: String, parameters: [String: QueryValue], interrupter: StatementInterrupter?,
                      columns: ([ReportColumn]) throws -> Void, row: ([ReportValue]) throws -> Void) throws {
        let report = try adHoc(sql, parameters: parameters, interrupter: interrupter)
        try columns(report.columns)
        for values in report.rows { try row(values) }
    }
}

// MARK: - Model comparison

extension ReportBackend {
    /// The model comparison against `baseline` (`metrics.md`): each model's dislike rate with
    /// its delta-method interval, and its difference from the baseline's at the same position.
    ///
    /// - Throws: `QueryError.notFound` when the baseline has no impression under `filter`.
    public func compare(baseline: String, grouping: DislikeGrouping, user: String?, filter: FeedFilter) throws -> GroupedReport {
        try modelComparison(grouping, user: user, filter: filter).report(baseline: baseline)
    }
}
