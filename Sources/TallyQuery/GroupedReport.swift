/// A report of rows grouped by keys: dislike rate, exposure counts, latency, top
/// (`metrics.md`: `{"rows": [{<group keys>, <measures>}]}`).
public struct GroupedReport: Sendable, Equatable {
    /// The columns, group keys first.
    public var columns: [ReportColumn]
    /// The rows, in the order `metrics.md` prescribes; each has one value per column.
    public var rows: [[ReportValue]]

    /// Creates a grouped report.
    public init(columns: [ReportColumn], rows: [[ReportValue]]) {
        self.columns = columns
        self.rows = rows
    }
}
