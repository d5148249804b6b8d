@testable import TallyQuery
import TallySQLite
import TallyTestSupport
import XCTest

/// The feed counters kept at ingest must equal the same numbers computed from the events
/// themselves, whatever the order events arrive in and however they are cut into batches.
final class FeedRollupConsistencyTests: XCTestCase {
    private typealias F = StoreFixture

    /// Exposure counts straight from the events: the earliest event of each pair by timestamp,
    /// then event id, and the number of events of the pair.
    private static let exposureScan = """
        WITH ranked AS (
            SELECT *, ROW_NUMBER() OVER (PARTITION BY page_instance_id, item_id ORDER BY ts_ms, event_id) AS rank,
                   COUNT(*) OVER (PARTITION BY page_instance_id, item_id) AS events
            FROM exposure_events)
        SELECT CASE :by WHEN 'day' THEN local_date WHEN 'page' THEN page_id WHEN 'item' THEN item_id
                        WHEN 'model' THEN model_info WHEN 'position' THEN feed_position END AS g,
               COUNT(*), COUNT(DISTINCT item_id), COUNT(DISTINCT user_id), SUM(events - 1)
        FROM ranked WHERE rank = 1 GROUP BY g ORDER BY g IS NULL, g
        """

    private func events(seed: UInt64, spanning: Bool) -> [String] {
        var random = SplitMix64(seed: seed)
        var lines: [String] = []
        let models = ["rec-v1", "rec-v2", "rec-v3"]
        for n in 0..<300 {
            let user = "u\(Int.random(in: 0..<3, using: &random))"
            let impression = "imp\(Int.random(in: 0..<25, using: &random))"
            // Without spanning, an impression always shows the same model and position.
            let groupSeed = spanning ? Int.random(in: 0..<1000, using: &random) : Int(impression.dropFirst(3))!
            let model = groupSeed % 7 == 0 ? nil : models[groupSeed % 3]
            let position = groupSeed % 11 == 0 ? nil : groupSeed % 6
            let ts = F.ms(days: -Int.random(in: 0..<5, using: &random), hours: -Int.random(in: 0..<24, using: &random))
            if Int.random(in: 0..<3, using: &random) == 0 {
                let kind = ["like", "dislike", "dislike", "neutral"][Int.random(in: 0..<4, using: &random)]
                let reason = kind == "dislike" && Int.random(in: 0..<3, using: &random) > 0 ? ["重复看到", "内容不感兴趣", "low quality"][Int.random(in: 0..<3, using: &random)] : nil
                lines.append(F.feedback("f\(n)", user: user, impression: impression, type: kind, ts: ts,
                                        model: model ?? "rec-v0", position: position ?? 0, reason: reason))
            } else {
                var line = F.exposure("x\(n)", user: user, page: ["home", "explore"][Int.random(in: 0..<2, using: &random)],
                                      pageInstance: "p\(Int.random(in: 0..<6, using: &random))", item: "i\(Int.random(in: 0..<8, using: &random))", impression: impression,
                                      ts: ts, model: model ?? "", position: position ?? 0)
                if model == nil { line = line.replacingOccurrences(of: #""modelInfo":"","#, with: "") }
                if position == nil { line = line.replacingOccurrences(of: #","feedPosition":0"#, with: "") }
                lines.append(line)
            }
        }
        return lines
    }

    private func rows(_ report: GroupedReport, measures: Int) -> [[ReportValue]] {
        report.rows.map { Array($0.prefix(measures)) }
    }

    func testCountersMatchAScanInAnyOrderAndBatching() throws {
        for seed in UInt64(1)...6 {
            for spanning in [false, true] {
                var lines = events(seed: seed, spanning: spanning)
                var random = SplitMix64(seed: seed * 31)
                for i in stride(from: lines.count - 1, to: 0, by: -1) {
                    lines.swapAt(i, Int.random(in: 0..<i + 1, using: &random))
                }
                let fixture = try F(lines, batchSize: 1 + Int.random(in: 0..<40, using: &random))
                let reports = SQLiteReports(store: fixture.store)
                for (byModel, byPosition, buckets) in [(true, true, ""), (true, false, ""), (false, true, ""), (false, true, "0-1,2-3,4-")] {
                    let parameters: [String: QueryValue] = [
                        "by_model": .int(byModel ? 1 : 0), "by_position": .int(byPosition ? 1 : 0),
                        "buckets": buckets.isEmpty ? .null : .text(DislikeGrouping(buckets: try DislikeGrouping.buckets(buckets)).bucketsJSON!),
                    ]
                    let scan = try reports.adHoc(try QueryLibrary.sql("dislike_rate_scan"), parameters: parameters)
                    let grouping = DislikeGrouping(byModel: byModel, byPosition: byPosition,
                                                   buckets: buckets.isEmpty ? [] : try DislikeGrouping.buckets(buckets))
                    let report = try reports.dislikeRate(grouping)
                    let keys = (byModel ? 1 : 0) + (byPosition ? 1 : 0)
                    let got = report.rows.map { Array($0.prefix(keys + 3)) + [$0[$0.count - 1]] }
                    let expected = scan.rows.map { row in
                        Array(row.prefix(2)).enumerated().filter { index, _ in index == 0 ? byModel : byPosition }.map(\.element)
                            + Array(row[2..<6])
                    }
                    XCTAssertEqual(got, expected, "seed \(seed), spanning \(spanning), by \(byModel)/\(byPosition) \(buckets)")
                }
                for by in ExposureGrouping.allCases {
                    let scan = try reports.adHoc(Self.exposureScan, parameters: ["by": .text(by.rawValue)])
                    XCTAssertEqual(try reports.exposures(by: by).rows, scan.rows, "seed \(seed), exposures by \(by)")
                }
            }
        }
    }
}
