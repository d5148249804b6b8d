/// The text formats a report can be rendered in (`--format`).
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned columns, charts and calendars for a terminal.
    case table
    /// The JSON shapes of `metrics.md`.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
}
