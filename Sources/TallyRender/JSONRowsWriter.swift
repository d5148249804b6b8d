import TallyEvents
import TallyQuery

/// `{"rows": [...]}` of a grouped report, as `Renderer.render(_:as: .json)` lays it out,
/// written a row at a time: an answer streamed while its rows are read never needs them all.
/// The text of `write` calls and then `end` joins to the whole rendering; `endCutShort` ends
/// a result cut short with `"truncated": true` and the error that cut it.
public struct JSONRowsWriter: Sendable {
    private let columns: [ReportColumn]
    /// Rows written so far.
    public private(set) var rows = 0

    /// A writer of rows of `columns`.
    public init(columns: [ReportColumn]) {
        self.columns = columns
    }

    /// Appends `row` to `out`, after the document's head when it is the first.
    public mutating func write(_ row: [ReportValue], into out: inout String) {
        out += rows == 0 ? "{\n  \"rows\": [\n    " : ",\n    "
        GroupedReport.json(of: row, columns: columns).write(into: &out, depth: 2, layout: .readable)
        rows += 1
    }

    /// Appends the end of the document to `out`.
    public func end(into out: inout String) {
        out += rows == 0 ? "{\n  \"rows\": []\n}\n" : "\n  ]\n}\n"
    }

    /// The end of a document whose rows (one or more, written by a writer) are the first of a
    /// longer result, cut short by an error: `"truncated": true` and `"error"` with its code and
    /// message (as in an error answer) follow them.
    public static func endCutShort(code: String, message: String) -> String {
        var out = "\n  ],\n  \"truncated\": true,\n  \"error\": "
        JSONValue.object([("code", .string(code)), ("message", .string(message))]).write(into: &out, depth: 1, layout: .readable)
        return out + "\n}\n"
    }
}
