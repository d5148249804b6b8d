import TallyEvents
import TallyQuery

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
