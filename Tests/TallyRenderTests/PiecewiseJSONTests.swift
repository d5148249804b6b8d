import Testing
import TallyQuery
import TallyRender

/// An ad hoc answer rendered a piece at a time is the same text, and stops between pieces.
@Suite struct PiecewiseJSONTests {
    private struct Stop: Error {}

    @Test func piecesJoinToTheWholeRendering() throws {
        let columns = [ReportColumn("n", role: .key), ReportColumn("text", role: .measure), ReportColumn("x", role: .measure)]
        for count in [0, 1, 2, 5, 2001] {
            let report = GroupedReport(columns: columns, rows: (0..<count).map { [.int(Int64($0)), .text("r\($0)\n\"q\""), $0 % 2 == 0 ? .null : .double(0.5)] })
            let whole = Renderer(color: false).render(report, as: .json)
            for size in [1, 2, 1000] {
                #expect(Renderer(color: false).renderJSON(report, rowsPerPiece: size, checking: {}) == whole, "\(count) rows, \(size) a piece")
            }
        }
    }

    @Test func aThrowingCheckStopsTheRendering() {
        let report = GroupedReport(columns: [ReportColumn("n", role: .key)], rows: (0..<10_000).map { [.int(Int64($0))] })
        var checks = 0
        #expect(throws: Stop.self) {
            try Renderer(color: false).renderJSON(report, rowsPerPiece: 100) {
                checks += 1
                if checks == 3 { throw Stop() }
            }
        }
        #expect(checks == 3, "no piece is rendered after the check that threw")
    }
}
