import Foundation
import Testing
import TallyQuery
import TallyRender

/// An ad hoc answer written a row at a time is the same text as the whole rendering, and one
/// cut short ends as JSON that says so.
@Suite struct PiecewiseJSONTests {
    private static let columns = [ReportColumn("n", role: .key), ReportColumn("text", role: .measure), ReportColumn("x", role: .measure)]

    private static func rows(_ count: Int) -> [[ReportValue]] {
        (0..<count).map { [.int(Int64($0)), .text("r\($0)\n\"q\""), $0 % 2 == 0 ? .null : .double(0.5)] }
    }

    @Test func rowsWrittenOneAtATimeJoinToTheWholeRendering() {
        for count in [0, 1, 2, 5, 2001] {
            let whole = Renderer(color: false).render(GroupedReport(columns: Self.columns, rows: Self.rows(count)), as: .json)
            var writer = JSONRowsWriter(columns: Self.columns)
            var pieces: [String] = []
            for row in Self.rows(count) {
                var piece = ""
                writer.write(row, into: &piece)
                pieces.append(piece)
            }
            var last = ""
            writer.end(into: &last)
            #expect((pieces + [last]).joined() == whole, "\(count) rows")
            #expect(writer.rows == count)
        }
    }

    @Test func aResultCutShortSaysSoAndWhy() throws {
        var writer = JSONRowsWriter(columns: Self.columns)
        var out = ""
        for row in Self.rows(3) { writer.write(row, into: &out) }
        out += JSONRowsWriter.endCutShort(code: "SQL_TOO_LARGE", message: "The result came to more than \"3\" rows.")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect((json["rows"] as? [Any])?.count == 3)
        #expect(json["truncated"] as? Bool == true)
        #expect((json["error"] as? [String: Any])?["code"] as? String == "SQL_TOO_LARGE")
        #expect(out.hasSuffix("\n  ],\n  \"truncated\": true,\n  \"error\": {\"code\": \"SQL_TOO_LARGE\", \"message\": \"The result came to more than \\\"3\\\" rows.\"}\n}\n"))
    }
}
