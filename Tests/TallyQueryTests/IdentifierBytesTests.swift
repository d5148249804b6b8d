import TallyQuery
import TallySQLite
import XCTest

/// Identifiers are bytes: two ids that are canonically equivalent Unicode but different bytes
/// (`"caf\u{E9}"` and `"cafe\u{301}"`) are different users, materials, impressions, models,
/// pages and items, in the rollups kept at ingest and in the reports, as they are in the events.
final class IdentifierBytesTests: XCTestCase {
    private typealias F = StoreFixture
    private let now = StoreFixture.ms()

    /// Pairs of canonically equivalent texts with different bytes: precomposed and decomposed
    /// é, the Ångström sign and Å, a Hangul syllable and its jamo.
    static let pairs = [("caf\u{E9}", "cafe\u{301}"), ("\u{212B}", "\u{C5}"), ("\u{D55C}", "\u{1112}\u{1161}\u{11AB}")]

    /// The UTF-8 bytes of each text value of `rows`' column `column`, as a set.
    private func keys(_ rows: [[ReportValue]], column: Int = 0) -> Set<[UInt8]> {
        Set(rows.compactMap { bytes($0[column]) })
    }

    /// The UTF-8 bytes of a text value.
    private func bytes(_ value: ReportValue) -> [UInt8]? {
        if case .text(let text) = value { return Array(text.utf8) }
        return nil
    }

    func testEquivalentMaterialIdsAreTwoMaterials() throws {
        for (first, second) in Self.pairs {
            XCTAssertNotEqual(Array(first.utf8), Array(second.utf8))
            let lines = [
                F.reading("1", material: first, ts: F.ms(hours: -3), delta: 40),
                F.reading("2", material: second, ts: F.ms(hours: -2), delta: 80),
            ]
            let reports = SQLiteReports(store: try F(lines).store)
            XCTAssertEqual(try reports.summary(ReportContext(nowMs: now)).materialsStarted, 2, first)
            for (material, seconds) in [(first, 40), (second, 80)] {
                let progress = try reports.progress(ReportContext(nowMs: now), materialId: material)
                XCTAssertEqual(progress.status, .inProgress, material)
                XCTAssertEqual(progress.totalActiveSeconds, seconds, material)
            }
        }
    }

    func testEquivalentUserIdsInOneBatchAreTwoUsers() throws {
        for (first, second) in Self.pairs {
            let lines = [
                F.reading("1", user: first, ts: F.ms(hours: -3), delta: 40),
                F.reading("2", user: second, ts: F.ms(hours: -2), delta: 80),
                F.observed("o1", name: "api_request_failed", user: first, properties: "{}"),
                F.observed("o2", name: "api_request_failed", user: second, properties: "{}"),
                F.observed("o3", name: "api_request_failed", user: second, properties: "{}"),
            ]
            let reports = SQLiteReports(store: try F(lines, batchSize: 100).store)
            XCTAssertEqual(try reports.summary(ReportContext(user: first, nowMs: now)).totalActiveSeconds, 40, first)
            XCTAssertEqual(try reports.summary(ReportContext(user: second, nowMs: now)).totalActiveSeconds, 80, second)
            let top = try reports.top(event: "api_request_failed", by: "userId", limit: 10).rows
            XCTAssertEqual(top.map { $0[1] }, [.int(2), .int(1)])
            XCTAssertEqual(top.map { bytes($0[0]) }, [Array(second.utf8), Array(first.utf8)])
        }
    }

    func testEquivalentImpressionsAndModelsAreTwoOfEach() throws {
        for (first, second) in Self.pairs {
            let lines = [
                F.exposure("x1", pageInstance: "p", item: "i1", impression: first, ts: 1, model: first),
                F.exposure("x2", pageInstance: "p", item: "i2", impression: second, ts: 2, model: second),
                F.feedback("f1", impression: first, type: "dislike", ts: 3, model: first, reason: first),
                F.feedback("f2", impression: second, type: "like", ts: 4, model: second),
            ]
            let reports = SQLiteReports(store: try F(lines, batchSize: 100).store)
            let rows = try reports.dislikeRate(DislikeGrouping(byModel: true, byPosition: false), topReasons: 2).rows
            XCTAssertEqual(keys(rows), [Array(first.utf8), Array(second.utf8)], first)
            // exposures, likes, dislikes of each model
            XCTAssertEqual(Set(rows.map { "\(Array($0[1...3]))" }), ["\([ReportValue.int(1), .int(0), .int(1)])", "\([ReportValue.int(1), .int(1), .int(0)])"], first)
        }
    }

    func testEquivalentPageInstancesAndItemsAreDifferentPairs() throws {
        for (first, second) in Self.pairs {
            let lines = [
                F.exposure("x1", pageInstance: first, item: "i", impression: "a", ts: 1),
                F.exposure("x2", pageInstance: second, item: "i", impression: "b", ts: 2),
                F.exposure("x3", pageInstance: "p", item: first, impression: "c", ts: 3),
                F.exposure("x4", pageInstance: "p", item: second, impression: "d", ts: 4),
            ]
            let reports = SQLiteReports(store: try F(lines, batchSize: 100).store)
            let byDay = try reports.exposures(by: .day).rows
            // exposures, unique items, unique users, duplicates: four pairs, three items, no duplicate
            XCTAssertEqual(byDay.map { Array($0[1...4]) }, [[.int(4), .int(3), .int(1), .int(0)]], first)
            let items: Set<[UInt8]> = [Array("i".utf8), Array(first.utf8), Array(second.utf8)]
            XCTAssertEqual(keys(try reports.exposures(by: .item).rows), items, first)
        }
    }

    /// One numeric property written four ways is one group, keyed by the number as JSON prints it.
    func testANumberIsOneGroupWhateverItsJSONText() throws {
        let lines = ["0", "-0", "0.0", "0e5"].enumerated().map { index, text in
            F.observed("o\(index)", name: "view_loaded", properties: #"{"k":\#(text),"ms":\#((index + 1) * 10)}"#)
        } + [F.observed("o9", name: "view_loaded", properties: #"{"k":1.0,"ms":5}"#)]
        let reports = SQLiteReports(store: try F(lines).store)
        XCTAssertEqual(try reports.latency(event: "view_loaded", field: "ms", by: "k").rows, [
            [.int(0), .int(4), .int(20), .int(40), .int(40), .int(40)],
            [.int(1), .int(1), .int(5), .int(5), .int(5), .int(5)],
        ])
        XCTAssertEqual(try reports.top(event: "view_loaded", by: "k", limit: 10).rows, [[.int(0), .int(4)], [.int(1), .int(1)]])
    }
}
