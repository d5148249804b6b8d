import NIOConcurrencyHelpers
import TallyEvents
import TallyQuery

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

    /// The `/healthz` answer: `{"status": "ok", "events": {...}, "rejectedLines": n}`, from the
    /// saved query `store_counts` of the backend.
    func answer(version: String, nowMs: Int64, readers: ReaderPool) async throws -> String {
        if let last = counted.withLockedValue({ $0 }), last.version == version || nowMs - last.atMs < maxAgeMs {
            return last.json
        }
        let counts = try await readers.saved("store_counts")
        func count(_ column: String) -> Int64 {
            guard let index = counts.columns.firstIndex(where: { $0.name == column }),
                  case .int(let n) = counts.rows.first?[index] else { return 0 }
            return n
        }
        let members = ["reading", "feedback", "exposure", "observability"].map { "\(JSONText.quote($0)):\(count($0))" }
        let json = "{\"status\":\"ok\",\"events\":{\(members.joined(separator: ","))},\"rejectedLines\":\(count("rejectedLines"))}\n"
        counted.withLockedValue { $0 = Counted(version: version, atMs: nowMs, json: json) }
        return json
    }
}
