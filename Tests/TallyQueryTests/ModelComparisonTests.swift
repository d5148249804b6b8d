import TallyEvents
import TallyQuery
import TallySQLite
import XCTest

/// The model comparison's statistics against values computed by hand, and the comparison and
/// the event filters over a store.
final class ModelComparisonTests: XCTestCase {
    private typealias F = StoreFixture
    private typealias Counts = RatioEstimate.Counts

    func testTheDeltaMethodVarianceMatchesTheSpecsFormulaComputedByHand() throws {
        // Users (n, d) = (10, 1), (20, 4), (30, 3): Σn = 60, Σd = 8, R = 2/15, k = 3, n̄ = 20;
        // s_n² = 100, s_d² = 7/3, s_nd = 10; V = (7/3 − 2·(2/15)·10 + (2/15)²·100) / (3·400) = (13/9) / 1200.
        let model = RatioEstimate([Counts(exposures: 10, dislikes: 1), Counts(exposures: 20, dislikes: 4), Counts(exposures: 30, dislikes: 3)])
        XCTAssertEqual(model.users, 3)
        XCTAssertEqual(model.exposures, 60)
        XCTAssertEqual(model.dislikes, 8)
        XCTAssertEqual(try XCTUnwrap(model.rate), 2.0 / 15, accuracy: 1e-15)
        XCTAssertEqual(try XCTUnwrap(model.variance), 13.0 / 9 / 1200, accuracy: 1e-15)
        // R ∓ 1.96·√V = 0.13333 ∓ 0.06800.
        let interval = try XCTUnwrap(model.interval)
        XCTAssertEqual(interval.low, 0.06533224401743966, accuracy: 1e-12)
        XCTAssertEqual(interval.high, 0.20133442264922702, accuracy: 1e-12)

        // Baseline (10, 2), (10, 0): R = 0.1, V = ((2 − 1)² + (0 − 1)²) / 1 / (2·10²) = 0.01.
        let baseline = RatioEstimate([Counts(exposures: 10, dislikes: 2), Counts(exposures: 10, dislikes: 0)])
        XCTAssertEqual(try XCTUnwrap(baseline.variance), 0.01, accuracy: 1e-15)
        // difference = 1/30; √(V(m) + V(B)) = √0.0112037 = 0.105847; p = erfc(0.033333 / √(2·0.0112037)) = erfc(0.222681).
        let difference = try XCTUnwrap(model.compared(with: baseline))
        XCTAssertEqual(difference.difference, 1.0 / 30, accuracy: 1e-15)
        XCTAssertEqual(try XCTUnwrap(difference.low), -0.17412786339547218, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(difference.high), 0.24079453006213883, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(difference.relative), 1.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(difference.pValue), 0.752823664896205, accuracy: 1e-9)
    }

    func testUndefinedTermsAreNull() throws {
        // One user: V undefined, so no interval, no difference interval and no p-value.
        let one = RatioEstimate([Counts(exposures: 50, dislikes: 5)])
        XCTAssertEqual(one.rate, 0.1)
        XCTAssertNil(one.variance)
        XCTAssertNil(one.interval)
        let zero = RatioEstimate([Counts(exposures: 5, dislikes: 0), Counts(exposures: 5, dislikes: 0)])
        XCTAssertEqual(zero.variance, 0)
        let difference = try XCTUnwrap(one.compared(with: zero))
        XCTAssertEqual(difference.difference, 0.1, accuracy: 1e-15)
        XCTAssertNil(difference.low)
        XCTAssertNil(difference.relative, "R(B) = 0")
        XCTAssertNil(difference.pValue)
        // Both variances 0: the interval is the difference itself, the p-value undefined.
        let same = try XCTUnwrap(zero.compared(with: zero))
        XCTAssertEqual(same.low, 0)
        XCTAssertNil(same.pValue)
    }

    func testTheVarianceIsExactAndTheSameInAnyOrderOfTheUsers() throws {
        // d = 9/11 of n for every user: Σ (d − R·n)² is 0, which R = 9/11 rounded to a double leaves
        // at about 5e-29 when each residual is taken in floating point.
        let proportional = [1, 2, 3, 7, 11].map { Counts(exposures: 11 * $0, dislikes: 9 * $0) }
        let estimate = RatioEstimate(proportional)
        XCTAssertEqual(estimate.variance, 0)
        XCTAssertEqual(RatioEstimate(proportional.reversed()), estimate)
        let zero = RatioEstimate([Counts(exposures: 5, dislikes: 0), Counts(exposures: 5, dislikes: 0)])
        XCTAssertNil(try XCTUnwrap(estimate.compared(with: zero)).pValue, "V(m) + V(B) = 0")

        let mixed: [Counts] = (1...40).map { (i: Int) -> Counts in
            let exposures = Int64(i * 7 % 23 + 1), dislikes = Int64(i * 5 % 3)
            return Counts(exposures: exposures, dislikes: dislikes)
        }
        XCTAssertEqual(RatioEstimate(mixed.reversed()), RatioEstimate(mixed))
        XCTAssertEqual(RatioEstimate(mixed.shuffled()), RatioEstimate(mixed))

        // N·d past 2⁶³: the terms in floating point. Residuals ±2²⁹ around R = 2⁻¹¹, n̄ = 2⁴⁰: V = 2⁵⁹ / (2·2⁸⁰).
        let huge = RatioEstimate([Counts(exposures: 1 << 40, dislikes: 1 << 30), Counts(exposures: 1 << 40, dislikes: 0)])
        XCTAssertEqual(huge.variance, 0x1p-22)
    }

    func testTheComparisonOrdersItsGroupsWhateverOrderTheRowsCameIn() throws {
        let grouping = DislikeGrouping(byModel: true, byPosition: true, buckets: try DislikeGrouping.buckets("0-4,5-9,10-"))
        var comparison = ModelComparison(grouping: grouping)
        let groups: [(ReportValue, ReportValue)] = [
            (.null, .text("0-4")), (.text("v2"), .null), (.text("v10"), .text("10-")), (.text("v2"), .text("5-9")),
            (.text("v2"), .text("0-4")), (.text("v10"), .text("0-4")), (.text("v2"), .text("10-")),
        ]
        for (index, (model, position)) in groups.enumerated() {
            for user in ["b", "a"] {
                comparison.add(model: model, position: position, user: user, exposures: Int64(index + 2), dislikes: 1)
            }
        }
        let rows = try comparison.report(baseline: "v2").rows
        XCTAssertEqual(rows.map { [$0[0], $0[1]] }, [
            [.text("v10"), .text("0-4")], [.text("v10"), .text("10-")],
            [.text("v2"), .text("0-4")], [.text("v2"), .text("5-9")], [.text("v2"), .text("10-")], [.text("v2"), .null],
            [.null, .text("0-4")],
        ])
        XCTAssertEqual(rows[0][15], .int(2), "v10 at 0-4 shares both users with v2 at 0-4")
        XCTAssertEqual(rows[1][15], .int(2))
        XCTAssertEqual(rows[2][15], .null, "the baseline's own row")
    }

    func testAUsersRowsInAGroupAddUpAndAUserWithNoExposureIsNoUser() throws {
        var comparison = ModelComparison(grouping: DislikeGrouping(byModel: true, byPosition: false))
        for (model, user, exposures, dislikes): (String, String, Int64, Int64) in [
            ("v1", "a", 3, 1), ("v1", "a", 2, 0), ("v1", "b", 4, 1), ("v1", "c", 1, 0), ("v1", "c", -1, 0),
            ("v2", "a", 2, 1), ("v2", "b", 0, 0), ("v3", "a", 0, 0),
        ] {
            comparison.add(model: .text(model), position: .null, user: user, exposures: exposures, dislikes: dislikes)
        }
        let rows = try comparison.report(baseline: "v1").rows
        XCTAssertEqual(rows.map { Array($0[0..<4]) }, [
            [.text("v1"), .int(2), .int(9), .int(2)],
            [.text("v2"), .int(1), .int(2), .int(1)],
        ], "v1: a (5, 1) and b; c's exposures add up to 0; v2: a only; v3: no user")
        XCTAssertEqual(rows[1][14], .int(1), "a used both")
    }

    func testCompareCountsUsersAsTheUnitAndComparesEachModelWithTheBaseline() throws {
        var lines: [String] = []
        // v1: users a (4 impressions, 1 dislike) and b (2, 0); v2: users b (3, 2) and c (1, 1).
        for (user, model, count, dislikes) in [("a", "v1", 4, 1), ("b", "v1", 2, 0), ("b", "v2", 3, 2), ("c", "v2", 1, 1)] {
            for i in 0..<count {
                let impression = "\(user)-\(model)-\(i)"
                lines.append(F.exposure("x-\(impression)", user: user, pageInstance: "p-\(user)", item: impression, impression: impression,
                                        ts: F.ms(days: model == "v1" ? -3 : -1), model: model))
                if i < dislikes {
                    lines.append(F.feedback("f-\(impression)", user: user, impression: impression, type: "dislike", ts: F.ms(days: -1), model: model))
                }
            }
        }
        let reports = SQLiteReports(store: try F(lines).store)
        let report = try reports.compare(baseline: "v1", grouping: DislikeGrouping(byModel: true, byPosition: false), user: nil, filter: FeedFilter())
        XCTAssertEqual(report.columns.map(\.name), [
            "modelInfo", "users", "exposures", "dislikes", "dislikeRate", "dislikeRateLow", "dislikeRateHigh", "firstDate", "lastDate",
            "difference", "differenceLow", "differenceHigh", "relativeDifference", "pValue", "sharedUsers",
        ])
        XCTAssertEqual(report.rows.count, 2)
        XCTAssertEqual(Array(report.rows[0][0..<5]), [.text("v1"), .int(2), .int(6), .int(1), .double(1.0 / 6)])
        XCTAssertEqual(Array(report.rows[0][7...]), [.text("2026-11-17"), .text("2026-11-19"), .null, .null, .null, .null, .null, .null])
        XCTAssertEqual(Array(report.rows[1][0..<4]), [.text("v2"), .int(2), .int(4), .int(3)])
        XCTAssertEqual(report.rows[1][14], .int(1), "b used both")
        let v1 = RatioEstimate([Counts(exposures: 4, dislikes: 1), Counts(exposures: 2, dislikes: 0)])
        let v2 = RatioEstimate([Counts(exposures: 3, dislikes: 2), Counts(exposures: 1, dislikes: 1)])
        let expected = try XCTUnwrap(v2.compared(with: v1))
        XCTAssertEqual(report.rows[1][9], .double(expected.difference))
        guard case .double(let pValue) = report.rows[1][13] else { return XCTFail("pValue") }
        XCTAssertEqual(pValue, try XCTUnwrap(expected.pValue), accuracy: 1e-12)

        XCTAssertThrowsError(try reports.compare(baseline: "v9", grouping: DislikeGrouping(), user: nil, filter: FeedFilter())) { error in
            XCTAssertEqual(error as? QueryError, .notFound(name: "baseline", message: "baseline v9 has no impression under these filters"))
        }
        // Under a filter that keeps none of its events, the baseline has no impression.
        XCTAssertThrowsError(try reports.compare(baseline: "v1", grouping: DislikeGrouping(), user: nil, filter: FeedFilter(platform: "web")))
    }

    func testFiltersKeepOnlyTheEventsInTheWindowAndOfThePlatform() throws {
        let ios = #","platform":"ios","appVersion":"3.1.0""#, android = #","platform":"android""#
        let lines = [
            // imp1 on ios, disliked in the window, then liked after it: the window's final reaction is the dislike.
            F.exposure("x1", pageInstance: "p", item: "i1", impression: "imp1", ts: F.ms(days: -5), extra: ios),
            F.feedback("f1", impression: "imp1", type: "dislike", ts: F.ms(days: -5), extra: ios),
            F.feedback("f2", impression: "imp1", type: "like", ts: F.ms(days: -1), extra: ios),
            // imp2 on android; imp3 with no platform.
            F.exposure("x2", pageInstance: "p", item: "i2", impression: "imp2", ts: F.ms(days: -5), extra: android),
            F.feedback("f3", impression: "imp2", type: "dislike", ts: F.ms(days: -5), extra: android),
            F.exposure("x3", pageInstance: "p", item: "i3", impression: "imp3", ts: F.ms(days: -5)),
            // a second exposure of (p, i1) later: a duplicate without the window, the pair's only event with from = -2.
            F.exposure("x4", pageInstance: "p", item: "i1", impression: "imp1", ts: F.ms(days: -1), extra: ios),
        ]
        let reports = SQLiteReports(store: try F(lines).store)
        let byModel = DislikeGrouping(byModel: true, byPosition: false)
        func counts(_ filter: FeedFilter) throws -> [ReportValue] {
            Array(try reports.dislikeRate(byModel, topReasons: 0, user: nil, filter: filter).rows.first?[1..<4] ?? [])
        }
        XCTAssertEqual(try counts(FeedFilter()), [.int(3), .int(1), .int(1)])
        XCTAssertEqual(try counts(FeedFilter(to: LocalDate(iso: "2026-11-17"))), [.int(3), .int(0), .int(2)])
        XCTAssertEqual(try counts(FeedFilter(platform: "ios")), [.int(1), .int(1), .int(0)])
        XCTAssertEqual(try counts(FeedFilter(appVersion: "3.1.0")), [.int(1), .int(1), .int(0)])
        XCTAssertEqual(try counts(FeedFilter(platform: "web")), [])

        let exposures = { (filter: FeedFilter) in try reports.exposures(by: .model, user: nil, filter: filter).rows }
        XCTAssertEqual(try exposures(FeedFilter()), [[.text("v1"), .int(3), .int(3), .int(1), .int(1)]])
        XCTAssertEqual(try exposures(FeedFilter(from: LocalDate(iso: "2026-11-18"))), [[.text("v1"), .int(1), .int(1), .int(1), .int(0)]])
        XCTAssertEqual(try exposures(FeedFilter(platform: "android")), [[.text("v1"), .int(1), .int(1), .int(1), .int(0)]])
    }

    func testFilterValuesAreCheckedAsDates() throws {
        XCTAssertEqual(try FeedFilter.parse(from: "2026-10-01", to: "", platform: "", appVersion: nil), FeedFilter(from: LocalDate(iso: "2026-10-01")))
        XCTAssertTrue(try FeedFilter.parse(from: nil, to: nil, platform: "", appVersion: "").isEmpty)
        XCTAssertThrowsError(try FeedFilter.parse(from: "2026-02-30", to: nil, platform: nil, appVersion: nil)) { error in
            XCTAssertEqual(error as? QueryError, .invalidParameter(name: "from", message: "from must be a date YYYY-MM-DD, got \"2026-02-30\""))
        }
        XCTAssertThrowsError(try FeedFilter.parse(from: nil, to: "20261001", platform: nil, appVersion: nil))
    }
}
