/// The text formats a report can be rendered in (`--format`).
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned columns, charts and calendars for a terminal.
    case table
    /// The JSON shapes of `metrics.md`.
    case json
    /// RFC 4180 CSV with a header row.
    case csv
    /// Newline-delimited JSON: one compact object a line — a row of a grouped report, a day of
    /// the trend or the heatmap, or the one object of a flat answer.
    case ndjson

    /// The formats as `--help` lists them: `table, json, csv or ndjson`.
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}
