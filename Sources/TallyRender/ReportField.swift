import TallyEvents
import TallyIngest
import TallyQuery

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

// MARK: - LearningSummary

extension LearningSummary {
    /// The summary's values in the order of `metrics.md`; seconds shown as durations.
    var fields: [ReportField] {
        [
            .duration("totalActiveSeconds", "total active", seconds: totalActiveSeconds),
            .duration("todayActiveSeconds", "today", seconds: todayActiveSeconds),
            .duration("weekActiveSeconds", "last 7 days", seconds: weekActiveSeconds),
            .count("activeDays", "active days", activeDays),
            .count("currentStreakDays", "current streak", currentStreakDays, unit: "day"),
            .count("longestStreakDays", "longest streak", longestStreakDays, unit: "day"),
            .count("materialsStarted", "materials started", materialsStarted),
            .count("materialsCompleted", "materials completed", materialsCompleted),
            .instant("lastActiveAt", "last active", ms: lastActiveAt),
        ]
    }
}

// MARK: - ContinueLearning

extension ContinueLearning {
    /// The answer's values in the order of `metrics.md`; with nothing to continue, `type` is
    /// `none` and the others are null.
    static func fields(of next: ContinueLearning?) -> [ReportField] {
        [
            .text("type", "type", next?.type ?? "none"),
            .text("materialId", "material", next?.materialId),
            .text("title", "title", next?.title),
        ]
            + MaterialPosition.fields(of: next?.lastPosition)
            + [.instant("lastReadAt", "last read", ms: next?.lastReadAt)]
    }
}

// MARK: - ReadingProgress

extension ReadingProgress {
    /// The answer's values in the order of `metrics.md`; a material not started has zeros and nulls.
    var fields: [ReportField] {
        [
            .text("materialId", "material", materialId),
            .text("status", "status", status.rawValue),
        ]
            + MaterialPosition.fields(of: lastPosition)
            + [
                .duration("totalActiveSeconds", "total active", seconds: totalActiveSeconds),
                .instant("lastReadAt", "last read", ms: lastReadAt),
            ]
    }
}

// MARK: - MaterialPosition

extension MaterialPosition {
    /// `lastPosition` (the position object verbatim) and `lastProgress` (shown as a percentage)
    /// of an answer whose position may be unknown.
    static func fields(of position: MaterialPosition?) -> [ReportField] {
        [
            ReportField(name: "lastPosition", label: "position",
                        value: position.map { .verbatim($0.json) } ?? .null,
                        display: position?.json ?? Readable.missing),
            ReportField(name: "lastProgress", label: "progress",
                        value: position?.progress.map(JSONValue.double) ?? .null,
                        display: position?.progress.map(Readable.percent) ?? Readable.missing),
        ]
    }
}

// MARK: - IngestCounts

extension IngestCounts {
    /// `accepted`, `duplicates`, `rejected`.
    var fields: [ReportField] {
        [.count("accepted", "accepted", accepted), .count("duplicates", "duplicates", duplicates), .count("rejected", "rejected", rejected)]
    }
}
