import TallyEvents
import TallyIngest
import TallySQLite

/// The answer to a write (`api.md`): how many events were stored, which keys were already
/// stored, and why each rejected record was refused.
struct WriteAnswer: Sendable {
    /// Events stored for the first time.
    var accepted = 0
    /// Idempotency keys already stored, in input order.
    var duplicates: [String] = []
    /// Rejected records: key when readable, line, position in a batch, code, field and message.
    var rejected: [(origin: RecordOrigin, rejection: EventRejection)] = []

    /// Tallies the outcomes of one body.
    init(_ outcomes: StoreWriter.Outcomes) {
        for (entry, outcome) in outcomes {
            switch outcome {
            case .accepted: accepted += 1
            case .duplicate(let key): duplicates.append(key)
            case .rejected(let rejection): rejected.append((entry.origin, rejection))
            }
        }
    }

    /// `{"accepted": n, "duplicates": [...], "rejected": [{"eventId", "line", "index", "code", "field", "message"}]}`;
    /// `index` (0-based, in a batch) and `field` only when known, `eventId` null when unreadable.
    var json: String {
        var text = "{\"accepted\":\(accepted),\"duplicates\":["
        text += duplicates.map(JSONText.quote).joined(separator: ",")
        text += "],\"rejected\":["
        text += rejected.map { origin, rejection in
            var item = "{\"eventId\":\(rejection.eventKey.map(JSONText.quote) ?? "null"),\"line\":\(origin.line)"
            if let element = origin.element { item += ",\"index\":\(element)" }
            item += ",\"code\":\(JSONText.quote(rejection.code.rawValue))"
            if let field = rejection.field { item += ",\"field\":\(JSONText.quote(field))" }
            return item + ",\"message\":\(JSONText.quote(rejection.message))}"
        }.joined(separator: ",")
        return text + "]}\n"
    }

    /// ClickHouse's `X-ClickHouse-Summary` header, with Tally's own counts beside its `written_rows`.
    var clickHouseSummary: String {
        "{\"read_rows\":\"\(accepted + duplicates.count + rejected.count)\",\"written_rows\":\"\(accepted)\","
            + "\"duplicate_rows\":\"\(duplicates.count)\",\"rejected_rows\":\"\(rejected.count)\"}"
    }
}
