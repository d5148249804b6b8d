import Foundation
import Testing
import TallyEvents
import TallyQuery
@testable import TallyRender

/// Properties every output keeps, whatever the golden files say.
@Suite struct RenderTests {
    /// Every render of every sample, in every format, by the given renderer.
    private func everything(_ renderer: Renderer, format: OutputFormat) -> [String] {
        [
            renderer.render(Samples.summary, as: format), renderer.render(Samples.emptySummary, as: format),
            renderer.render(Samples.trend, as: format), renderer.render(Samples.heatmap, as: format),
            renderer.render(Samples.continueLearning, as: format), renderer.render(nil as ContinueLearning?, as: format),
            renderer.render(Samples.progress, as: format), renderer.render(Samples.notStarted, as: format),
            renderer.render(Samples.ingest, as: format),
        ] + [Samples.dislikeRate, Samples.latency, Samples.wideText, Samples.csvQuoting, Samples.jsonEscaping].map {
            renderer.render($0, as: format)
        }
    }

    /// Tables, JSON and NDJSON hold no escape code without color, not even one from the data (CSV
    /// keeps its fields verbatim: it is data, not a view).
    @Test(arguments: [OutputFormat.table, .json, .ndjson], [WeekStart.sunday, .monday])
    func noEscapeCodesWithoutColor(format: OutputFormat, weekStart: WeekStart) {
        for text in everything(Renderer(color: false, weekStart: weekStart), format: format) {
            #expect(!text.contains("\u{1B}"), "\(text.prefix(200))")
        }
    }

    @Test(arguments: OutputFormat.allCases)
    func outputEndsWithNewline(format: OutputFormat) {
        for text in everything(Renderer(color: true), format: format) {
            #expect(text.utf8.last == UInt8(ascii: "\n"), "\(text.suffix(200))")
        }
    }

    @Test func jsonParses() throws {
        for text in everything(Renderer(color: false), format: .json) {
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
        }
    }

    /// Every NDJSON line is one JSON object, and the lines are what `--format json` holds: its
    /// rows, its days, or the flat object itself.
    @Test func ndjsonLinesAreTheObjectsOfTheJSONAnswer() throws {
        let renderer = Renderer(color: false)
        let parse = { (text: String) throws -> Any in try JSONSerialization.jsonObject(with: Data(text.utf8)) }
        let cases: [(json: String, ndjson: String, list: String?)] = [
            (renderer.render(Samples.dislikeRate, as: .json), renderer.render(Samples.dislikeRate, as: .ndjson), "rows"),
            (renderer.render(Samples.jsonEscaping, as: .json), renderer.render(Samples.jsonEscaping, as: .ndjson), "rows"),
            (renderer.render(Samples.trend, as: .json), renderer.render(Samples.trend, as: .ndjson), "days"),
            (renderer.render(Samples.heatmap, as: .json), renderer.render(Samples.heatmap, as: .ndjson), "days"),
            (renderer.render(Samples.summary, as: .json), renderer.render(Samples.summary, as: .ndjson), nil),
            (renderer.render(Samples.progress, as: .json), renderer.render(Samples.progress, as: .ndjson), nil),
            (renderer.render(nil as ContinueLearning?, as: .json), renderer.render(nil as ContinueLearning?, as: .ndjson), nil),
        ]
        for (json, ndjson, list) in cases {
            let whole = try #require(try parse(json) as? NSDictionary)
            let expected = try list.map { try #require(whole[$0] as? [NSDictionary]) } ?? [whole]
            let lines = try ndjson.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
                try #require(try parse(String(line)) as? NSDictionary, "\(line)")
            }
            #expect(ndjson.hasSuffix("\n"))
            #expect(lines == expected, "\(ndjson.prefix(200))")
        }
    }

    @Test func ndjsonOfNoRowsIsEmpty() {
        let report = GroupedReport(columns: Samples.latency.columns, rows: [])
        #expect(Renderer(color: false).render(report, as: .ndjson) == "")
    }

    /// A position sent laid out over several lines stays on its answer's one line; a line
    /// separator in it is escaped.
    @Test func ndjsonKeepsAVerbatimDocumentOnOneLine() {
        let position = MaterialPosition(json: "{\r\n  \"page\": 2,\n  \"note\": \"a\\nb\u{2028}\"\n}", progress: nil)
        let progress = ReadingProgress(materialId: "m-1", status: .inProgress, lastPosition: position, totalActiveSeconds: 5, lastReadAt: nil)
        let text = Renderer(color: false).render(progress, as: .ndjson)
        #expect(text.filter { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count == 1)
        #expect(text.contains(#""lastPosition":{    "page": 2,   "note": "a\nb\u2028" }"#))
    }

    @Test func jsonKeepsFullPrecisionAndKeyOrder() throws {
        let text = Renderer(color: false).render(Samples.dislikeRate, as: .json)
        let rows = try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(rows[0]["dislikeRate"] as? Double == 0.08333333333333333)
        #expect(rows[2]["dislikeRate"] is NSNull)
        let keys = Samples.dislikeRate.columns.map { "\"\($0.name)\"" }
        let firstRow = try #require(text.split(separator: "\n").dropFirst(2).first)
        let positions = keys.map { firstRow.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil } && positions.map { $0! } == positions.map { $0! }.sorted())
    }

    @Test func heatmapOfAYearFitsIn110Columns() {
        for weekStart in [WeekStart.sunday, .monday] {
            let text = Renderer(color: false, weekStart: weekStart).render(Samples.heatmap, as: .table)
            let widest = text.split(separator: "\n").map { String($0).displayWidth }.max() ?? 0
            #expect(widest <= 110)
        }
    }

    @Test func longWindowsWrapInBlocksOfAYear() {
        let days = (0..<800).map { HeatmapReport.Day(date: Samples.today.adding(days: $0 - 799), activeSeconds: 0, level: 0) }
        let text = Renderer(color: false).render(HeatmapReport(days: days, activeDays: 0, maxActiveSeconds: 0, thresholds: []), as: .table)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.map { String($0).displayWidth }.max()! <= 110)
        #expect(lines.filter { $0.hasPrefix("Mon") }.count == 3)
        #expect(lines.suffix(3) == ["Less · ░ ▒ ▓ █ More", "no active days", ""])
    }

    /// Windows of one day, of a week ending on a month's first day, of a month starting on one.
    @Test(arguments: [(1, 0), (7, -19), (30, 10)])
    func shortWindows(length: Int, endOffset: Int) {
        let end = Samples.today.adding(days: endOffset)
        let days = (0..<length).map { HeatmapReport.Day(date: end.adding(days: $0 - length + 1), activeSeconds: 60, level: 1) }
        let report = HeatmapReport(days: days, activeDays: length, maxActiveSeconds: 60, thresholds: [60, 60, 60])
        for weekStart in [WeekStart.sunday, .monday] {
            let text = Renderer(color: false, weekStart: weekStart).render(report, as: .table)
            #expect(text.filter { $0 == "░" }.count == length + 2)  // the days, and two in the legend
        }
    }

    @Test func tableCellsCannotSendEscapeCodes() {
        let report = GroupedReport(columns: [ReportColumn("line", role: .key)], rows: [[.text("\u{1B}[2J\u{1B}[31mred\nnext")]])
        let text = Renderer(color: false).render(report, as: .table)
        #expect(text == "line\n" + String(repeating: "─", count: 28) + "\n\\u{1B}[2J\\u{1B}[31mred\\nnext\n")
    }

    @Test func longCellsAreCut() {
        let report = GroupedReport(columns: [ReportColumn("raw", role: .key)], rows: [[.text(String(repeating: "长", count: 100))]])
        let line = Renderer(color: false).render(report, as: .table).split(separator: "\n")[2]
        #expect(String(line) == String(repeating: "长", count: 39) + "…")
        #expect(String(line).displayWidth == 79)
    }

    /// The one JSONValue of TallyEvents, as the answers lay it out: members in their order.
    @Test func jsonTextForPeopleKeepsTheMembersOrderAndWritesBooleans() {
        let value = JSONValue.object([("z", .bool(true)), ("a", .array([.bool(false), .verbatim("{\"p\":1}")]))])
        #expect(value.text == "{\n  \"z\": true,\n  \"a\": [false, {\"p\":1}]\n}")
        #expect(value.line == "{\"z\":true,\"a\":[false,{\"p\":1}]}")
    }
}
