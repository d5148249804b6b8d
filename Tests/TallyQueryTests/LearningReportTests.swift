import TallyEvents
import TallyQuery
import TallySQLite
import XCTest

final class LearningReportTests: XCTestCase {
    private typealias F = StoreFixture
    private let now = StoreFixture.ms()

    func testStreaksTotalsAndTodayInTheUsersLatestZone() throws {
        // Active on today, -1, -2 and on -9...-5 (five days) in UTC+8; the newest event sets the zone.
        var lines: [String] = []
        for day in [0, -1, -2, -5, -6, -7, -8, -9] {
            lines.append(F.reading("d\(day)", ts: F.ms(days: day, hours: -2), delta: 60, tz: 480))
        }
        lines.append(F.reading("zero", material: "m2", type: "marked_as_read", ts: F.ms(days: -3), delta: 0, tz: 480))
        let reports = SQLiteReports(store: try F(lines).store)
        let summary = try reports.summary(ReportContext(user: "u", nowMs: now))
        XCTAssertEqual(summary, LearningSummary(totalActiveSeconds: 480, todayActiveSeconds: 60, weekActiveSeconds: 300,
                                                activeDays: 8, currentStreakDays: 3, longestStreakDays: 5,
                                                materialsStarted: 2, materialsCompleted: 1, lastActiveAt: F.ms(hours: -2)))
    }

    func testCurrentStreakEndsYesterdayWhenTodayIsNotActiveYet() throws {
        let lines = [-1, -2].map { F.reading("d\($0)", ts: F.ms(days: $0), delta: 30) }
        let summary = try SQLiteReports(store: try F(lines).store).summary(ReportContext(user: "u", nowMs: now))
        XCTAssertEqual(summary.currentStreakDays, 2)
        XCTAssertEqual(summary.todayActiveSeconds, 0)
    }

    func testTzMovesToday() throws {
        // 2026-11-20T12:00Z is already 2026-11-21 at +14:00, where nothing was read yet.
        let lines = [F.reading("a", ts: F.ms(hours: -1), delta: 30)]
        let reports = SQLiteReports(store: try F(lines).store)
        XCTAssertEqual(try reports.summary(ReportContext(user: "u", nowMs: now)).todayActiveSeconds, 30)
        XCTAssertEqual(try reports.summary(ReportContext(user: "u", nowMs: now, timezoneOffsetMinutes: 840)).todayActiveSeconds, 0)
    }

    func testHeatmapLevelsFollowTheQuartilesOfNonZeroDays() throws {
        let lines = [10, 20, 30, 40, 50].enumerated().map { F.reading("h\($0.offset)", ts: F.ms(days: -$0.offset), delta: $0.element) }
        let heatmap = try SQLiteReports(store: try F(lines).store).heatmap(ReportContext(user: "u", nowMs: now), days: 7)
        XCTAssertEqual(heatmap.thresholds, [20, 30, 40])
        XCTAssertEqual(heatmap.days.map(\.level), [0, 0, 4, 3, 2, 1, 1])
        XCTAssertEqual(heatmap.days.first?.date.description, "2026-11-14")
        XCTAssertEqual(heatmap.activeDays, 5)
        XCTAssertEqual(heatmap.maxActiveSeconds, 50)
    }

    func testTrendIsZeroFilledWithThePreviousPeriod() throws {
        let lines = [
            F.reading("a", material: "m1", ts: F.ms(days: 0), delta: 10), F.reading("b", material: "m2", ts: F.ms(days: 0), delta: 5),
            F.reading("c", material: "m3", ts: F.ms(days: 0), delta: 0), F.reading("d", ts: F.ms(days: -3), delta: 7),
        ]
        let trend = try SQLiteReports(store: try F(lines).store).trend(ReportContext(user: "u", nowMs: now), days: 3)
        XCTAssertEqual(trend.days.map(\.activeSeconds), [0, 0, 15])
        XCTAssertEqual(trend.days.map(\.materials), [0, 0, 2])
        XCTAssertEqual(trend.totalActiveSeconds, 15)
        XCTAssertEqual(trend.previousPeriodActiveSeconds, 7)
    }

    func testWindowLengthIsValidated() throws {
        let reports = SQLiteReports(store: try F([]).store)
        XCTAssertThrowsError(try reports.trend(ReportContext(nowMs: now), days: 0)) { error in
            XCTAssertEqual(error as? QueryError, .invalidParameter(name: "days", message: "days must be 1...3660, got 0"))
        }
    }

    func testContinueLearningSkipsCompletedMaterialsAndKeepsNewestFields() throws {
        let lines = [
            F.reading("1", material: "done", ts: F.ms(hours: -1)),
            F.reading("2", material: "done", type: "marked_as_read", ts: F.ms(hours: -1)),
            F.reading("3", material: "book", ts: F.ms(hours: -5), extra: #","title":"线性代数","position":{"page":3,"pageCount":12}"#),
            F.reading("4", material: "book", ts: F.ms(hours: -4), extra: #","readingTargetType":"temporary_file""#),
            F.reading("5", material: "old", ts: F.ms(days: -3)),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        let answer = try reports.continueLearning(ReportContext(user: "u", nowMs: now))
        XCTAssertEqual(answer, ContinueLearning(materialId: "book", title: "线性代数", type: "temporary_file",
                                                lastPosition: MaterialPosition(json: #"{"page":3,"pageCount":12}"#, progress: 0.25),
                                                lastReadAt: F.ms(hours: -4)))
        XCTAssertNil(try reports.continueLearning(ReportContext(user: "nobody", nowMs: now)))
        XCTAssertEqual(try reports.progress(ReportContext(user: "u", nowMs: now), materialId: "done").status, .completed)
        XCTAssertEqual(try reports.progress(ReportContext(user: "u", nowMs: now), materialId: "book").totalActiveSeconds, 0)
        XCTAssertEqual(try reports.progress(ReportContext(user: "u", nowMs: now), materialId: "none").status, .notStarted)
    }

    func testContinueLearningTiesGoToTheSmallerMaterialIdNotTheLargerKey() throws {
        // Same timestamp and sequence: the smaller materialId wins; keys are not compared.
        let lines = [
            F.reading("z-key", material: "alpha", ts: F.ms(hours: -1)),
            F.reading("a-key", material: "zeta", ts: F.ms(hours: -1)),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        XCTAssertEqual(try reports.continueLearning(ReportContext(user: "u", nowMs: now))?.materialId, "alpha")
        let swapped = [
            F.reading("a-key", material: "alpha", ts: F.ms(hours: -1)),
            F.reading("z-key", material: "zeta", ts: F.ms(hours: -1)),
        ]
        XCTAssertEqual(try SQLiteReports(store: try F(swapped).store).continueLearning(ReportContext(nowMs: now))?.materialId, "alpha")
    }

    func testAllUsersTogetherMergeMaterialsAcrossUsers() throws {
        let lines = [
            F.reading("1", user: "a", material: "shared", ts: F.ms(hours: -3), delta: 20),
            F.reading("2", user: "b", material: "shared", type: "marked_as_read", ts: F.ms(hours: -2), delta: 5),
            F.reading("3", user: "b", material: "solo", ts: F.ms(hours: -1), delta: 1),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        let summary = try reports.summary(ReportContext(nowMs: now))
        XCTAssertEqual(summary.totalActiveSeconds, 26)
        XCTAssertEqual(summary.materialsStarted, 2)
        XCTAssertEqual(summary.materialsCompleted, 1)
        XCTAssertEqual(try reports.continueLearning(ReportContext(nowMs: now))?.materialId, "solo")
        XCTAssertEqual(try reports.progress(ReportContext(nowMs: now), materialId: "shared").totalActiveSeconds, 25)
    }
}
