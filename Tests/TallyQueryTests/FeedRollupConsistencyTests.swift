@testable import TallyQuery
import TallyStore
import XCTest

/// The feed counters kept at ingest must equal the same numbers computed from the events
/// themselves, whatever the order events arrive in and however they are cut into batches.
final class FeedRollupConsistencyTests: XCTestCase {
    private typealias F = StoreFixture

    /// A small deterministic generator (SplitMix64).
    private struct Random {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

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
        var random = Random(state: seed)
        var lines: [String] = []
        let models = ["rec-v1", "rec-v2", "rec-v3"]
        for n in 0..<300 {
            let user = "u\(random.below(3))"
            let impression = "imp\(random.below(25))"
            // Without spanning, an impression always shows the same model and position.
            let groupSeed = spanning ? random.below(1000) : Int(impression.dropFirst(3))!
            let model = groupSeed % 7 == 0 ? nil : models[groupSeed % 3]
            let position = groupSeed % 11 == 0 ? nil : groupSeed % 6
            let ts = F.ms(days: -random.below(5), hours: -random.below(24))
            if random.below(3) == 0 {
                let kind = ["like", "dislike", "dislike", "neutral"][random.below(4)]
                let reason = kind == "dislike" && random.below(3) > 0 ? ["重复看到", "内容不感兴趣", "low quality"][random.below(3)] : nil
                lines.append(F.feedback("f\(n)", user: user, impression: impression, type: kind, ts: ts,
                                        model: model ?? "rec-v0", position: position ?? 0, reason: reason))
            } else {
                var line = F.exposure("x\(n)", user: user, page: ["home", "explore"][random.below(2)],
                                      pageInstance: "p\(random.below(6))", item: "i\(random.below(8))", impression: impression,
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
                var random = Random(state: seed * 31)
                for i in stride(from: lines.count - 1, to: 0, by: -1) {
                    lines.swapAt(i, random.below(i + 1))
                }
                let fixture = try F(lines, batchSize: 1 + random.below(40))
                let reports = Reports(store: fixture.store)
                for (byModel, byPosition, buckets) in [(true, true, ""), (true, false, ""), (false, true, ""), (false, true, "0-1,2-3,4-")] {
                    let parameters: [String: SQLValue] = [
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
                            + Array(row.suffix(4))
                    }
                    XCTAssertEqual(got, expected, "seed \(seed), spanning \(spanning), by \(byModel)/\(byPosition) \(buckets)")
                }
                for by in ["day", "page", "item", "model", "position"] {
                    let scan = try reports.adHoc(Self.exposureScan, parameters: ["by": .text(by)])
                    XCTAssertEqual(try reports.exposures(by: by).rows, scan.rows, "seed \(seed), exposures by \(by)")
                }
            }
        }
    }
}
