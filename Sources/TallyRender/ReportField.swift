import TallyEvents

/// One named value of a flat report (summary, continue-learning, reading-progress, ingest):
/// its JSON key, a label for people, the value, and what a terminal shows.
struct ReportField {
    /// The JSON key and CSV header: the name `metrics.md` gives it.
    var name: String
    /// What a key/value table calls it.
    var label: String
    /// The value, as JSON and CSV write it.
    var value: JSONValue
    /// What a key/value table shows.
    var display: String

    /// A count, shown as is, or with its unit (`5 days`) when one is given.
    static func count(_ name: String, _ label: String, _ value: Int, unit: String? = nil) -> ReportField {
        ReportField(name: name, label: label, value: .int(Int64(value)),
                    display: unit.map { Readable.count(value, $0) } ?? String(value))
    }

    /// Seconds, shown as a duration (`1h 23m`).
    static func duration(_ name: String, _ label: String, seconds: Int) -> ReportField {
        ReportField(name: name, label: label, value: .int(Int64(seconds)), display: Readable.duration(seconds: seconds))
    }

    /// An instant (ms), written and shown as ISO-8601 UTC with milliseconds; `null` when absent.
    static func instant(_ name: String, _ label: String, ms: Int64?) -> ReportField {
        let iso = ms.map(Instant.iso)
        return ReportField(name: name, label: label, value: iso.map(JSONValue.string) ?? .null, display: iso ?? Readable.missing)
    }

    /// Text; `null` when absent.
    static func text(_ name: String, _ label: String, _ value: String?) -> ReportField {
        ReportField(name: name, label: label, value: value.map(JSONValue.string) ?? .null, display: value ?? Readable.missing)
    }
}
