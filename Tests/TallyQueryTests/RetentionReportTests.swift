import TallyEvents
import TallyQuery
import TallyRender
import TallySQLite
import XCTest

final class RetentionReportTests: XCTestCase {
    private typealias F = StoreFixture
    private let now = StoreFixture.ms()

    /// `a` reads on -31, -30, -24 and -1; `b` reads on -31 and only opens a material on -30.
    private func reports() throws -> SQLiteReports {
        let lines = [-31, -30, -24, -1].map { F.reading("a\($0)", user: "a", ts: F.ms(days: $0), delta: 30) }
            + [F.reading("b1", user: "b", ts: F.ms(days: -31), delta: 30),
               F.reading("b2", user: "b", type: "material_opened", ts: F.ms(days: -30))]
        return SQLiteReports(store: try F(lines).store)
    }

    /// The retention report over `reports()`, through the catalog's generic path.
    private func retention(_ context: ReportContext, days: Int) throws -> GroupedReport {
        var arguments = ReportCatalog.retention.defaultArguments
        arguments[int: "days"] = days
        return try ReportCatalog.report("retention", on: try reports(), context: context, arguments: arguments)
    }

    private func row(_ report: GroupedReport, daysAgo: Int) -> [ReportValue]? {
        let date = LocalDate(iso: "2026-11-20")!.adding(days: -daysAgo).description
        return report.rows.first { $0.first == .text(date) }
    }

    func testSharesOfEachCohortDayAndNullWhileTheirDayIsAhead() throws {
        let report = try retention(ReportContext(user: nil, nowMs: now), days: 40)
        XCTAssertEqual(report.columns.map(\.name), ["date", "users", "day1", "day7", "day30"])
        XCTAssertEqual(report.rows.count, 40)
        XCTAssertEqual(report.rows.last?.first, .text("2026-11-20"))
        XCTAssertEqual(row(report, daysAgo: 31), [.text("2026-10-20"), .int(2), .double(1), .double(0.5), .double(0.5)])
        XCTAssertEqual(row(report, daysAgo: 30), [.text("2026-10-21"), .int(2), .double(0), .double(0), .double(0)])
        XCTAssertEqual(row(report, daysAgo: 24), [.text("2026-10-27"), .int(1), .double(0), .double(0), .null])
        XCTAssertEqual(row(report, daysAgo: 1), [.text("2026-11-19"), .int(1), .double(0), .null, .null])
        XCTAssertEqual(row(report, daysAgo: 2), [.text("2026-11-18"), .int(0), .null, .null, .null])
    }

    func testOneUsersCohorts() throws {
        let report = try retention(ReportContext(user: "b", nowMs: now), days: 40)
        XCTAssertEqual(row(report, daysAgo: 31), [.text("2026-10-20"), .int(1), .double(1), .double(0), .double(0)])
        XCTAssertEqual(report.rows.filter { $0[1] != .int(0) }.count, 2)
    }

    func testTheWindowIsChecked() throws {
        XCTAssertThrowsError(try retention(ReportContext(user: nil, nowMs: now), days: 0))
    }
}
