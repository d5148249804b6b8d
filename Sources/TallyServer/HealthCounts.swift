import NIOConcurrencyHelpers
import TallyEvents
import TallyQuery
import TallyStore

/// The store's event counts for `/healthz`: counted when the store has changed, at most once
/// per `maxAgeMs`, so that a liveness probe stays cheap while events stream in.
final class HealthCounts: Sendable {
    private struct Counted {
        var version: String
        var atMs: Int64
        var json: String
    }

    private let counted = NIOLockedValueBox<Counted?>(nil)
    /// How old counts may be while the store changes.
    let maxAgeMs: Int64

    /// Counts refreshed at most every `maxAgeMs` milliseconds.
    init(maxAgeMs: Int64 = 5000) {
        self.maxAgeMs = maxAgeMs
    }

    /// The `/healthz` answer: `{"status": "ok", "events": {...}, "rejectedLines": n}`.
    func answer(version: String, nowMs: Int64, readers: ReaderPool) async throws -> String {
        if let last = counted.withLockedValue({ $0 }), last.version == version || nowMs - last.atMs < maxAgeMs {
            return last.json
        }
        let json = try await readers.withReports { reports in
            let families = ["reading": "reading_events", "feedback": "feedback_events",
                            "exposure": "exposure_events", "observability": "observability_events"]
            var members: [String] = []
            for family in ["reading", "feedback", "exposure", "observability"] {
                let rows = try reports.adHoc("SELECT count(*) FROM \(families[family]!)").rows
                members.append("\(JSONText.quote(family)):\(Self.count(rows))")
            }
            let rejected = Self.count(try reports.adHoc("SELECT count(*) FROM rejected_lines").rows)
            return "{\"status\":\"ok\",\"events\":{\(members.joined(separator: ","))},\"rejectedLines\":\(rejected)}\n"
        }
        counted.withLockedValue { $0 = Counted(version: version, atMs: nowMs, json: json) }
        return json
    }

    private static func count(_ rows: [[ReportValue]]) -> Int64 {
        if case .int(let n) = rows.first?.first { return n }
        return 0
    }
}
