import TallyEvents
import TallyIngest
import TallyQuery

/// Turns report values into text: the one entry point of the CLI and the HTTP server.
///
/// Every output ends with a newline (an NDJSON answer without rows is empty). JSON follows the
/// shapes of `metrics.md`, keys in the order it lists them; NDJSON writes the same objects one a
/// line: each row, each day, or the one flat object; CSV is RFC 4180 with a header row (CRLF line
/// ends); tables align by display width. Without `color`, tables, JSON and NDJSON hold no escape
/// code, not even one from the data (CSV writes its fields verbatim).
public struct Renderer: Sendable {
    /// Whether tables, charts and calendars may use ANSI colors and bold.
    public var color: Bool
    /// The first weekday of the heatmap calendar's weeks.
    public var weekStart: WeekStart

    /// Creates a renderer.
    public init(color: Bool, weekStart: WeekStart = .sunday) {
        self.color = color
        self.weekStart = weekStart
    }

    /// The learning summary; the table is a key/value list with durations.
    public func render(_ summary: LearningSummary, as format: OutputFormat) -> String {
        render(summary.fields, as: format)
    }

    /// The trend; the table is a bar chart with one bar per day and the change from the previous
    /// period; NDJSON and CSV hold the days only (their sum is `totalActiveSeconds`).
    public func render(_ trend: TrendReport, as format: OutputFormat) -> String {
        switch format {
        case .json: trend.json.text + "\n"
        case .ndjson: JSONValue.lines(trend.dayObjects)
        case .csv: trend.csv
        case .table: trend.chart(color: color)
        }
    }

    /// The heatmap; the table is a calendar of weeks starting on `weekStart`; NDJSON and CSV hold
    /// the days only (`date`, `activeSeconds`, `level`).
    public func render(_ heatmap: HeatmapReport, as format: OutputFormat) -> String {
        switch format {
        case .json: heatmap.json.text + "\n"
        case .ndjson: JSONValue.lines(heatmap.dayObjects)
        case .csv: heatmap.csv
        case .table: heatmap.calendar(weekStart: weekStart, color: color)
        }
    }

    /// The material to continue, or `nil` when there is none: JSON and NDJSON `{"type": "none"}`,
    /// and `type` `none` with empty values in a table or CSV.
    public func render(_ next: ContinueLearning?, as format: OutputFormat) -> String {
        let fields = ContinueLearning.fields(of: next)
        if next == nil, format == .json || format == .ndjson {
            return render(fields.filter { $0.name == "type" }, as: format)
        }
        return render(fields, as: format)
    }

    /// The reading progress of one material; the table is a key/value list.
    public func render(_ progress: ReadingProgress, as format: OutputFormat) -> String {
        render(progress.fields, as: format)
    }

    /// A grouped report (dislike rate, exposures, latency, top, an ad hoc query, rejected lines):
    /// `{"rows": [...]}`, one NDJSON or CSV line per row, or a table whose number columns are right-aligned.
    public func render(_ report: GroupedReport, as format: OutputFormat) -> String {
        switch format {
        case .json: report.json.text + "\n"
        case .ndjson: JSONValue.lines(report.rowObjects)
        case .csv: report.csv
        case .table: report.table(color: color)
        }
    }

    /// The model comparison against `baseline`: JSON and CSV as any grouped report; the table
    /// draws each difference and its interval on a shared axis and adds the warnings that bear
    /// on reading it (`ComparisonTable`).
    public func render(comparison report: GroupedReport, baseline: String, as format: OutputFormat) -> String {
        guard format == .table else { return render(report, as: format) }
        return ComparisonTable(report: report, baseline: baseline).rendered(color: color)
    }

    /// The counts of an ingest: `{"accepted": n, "duplicates": n, "rejected": n}`.
    public func render(_ counts: IngestCounts, as format: OutputFormat) -> String {
        render(counts.fields, as: format)
    }

    /// A flat report: one JSON object (on one line in NDJSON), a CSV header and row, or a key/value table.
    private func render(_ fields: [ReportField], as format: OutputFormat) -> String {
        let object = JSONValue.object(fields.map { ($0.name, $0.value) })
        switch format {
        case .json:
            return object.text + "\n"
        case .ndjson:
            return JSONValue.lines([object])
        case .csv:
            return CSVWriter.document(header: fields.map(\.name), rows: [fields.map(\.value.csvField)])
        case .table:
            let columns = [TextTable.Column(title: "field", alignment: .left), TextTable.Column(title: "value", alignment: .left)]
            return TextTable(columns: columns, rows: fields.map { [$0.label, $0.display] }).rendered(color: color)
        }
    }
}
