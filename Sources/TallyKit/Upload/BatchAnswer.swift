import Foundation

/// The body of a 200 answer to a batch (`api.md`, "Write side").
struct BatchAnswer: Decodable {
    /// One event the destination did not store.
    struct Rejected: Decodable {
        /// The event's idempotency key, when known.
        var eventId: String?
        /// Its 1-based position in the request body.
        var line: Int?
        /// `events.md`'s rejection code, or a destination's own.
        var code: String
        /// Why.
        var message: String?
    }

    /// Events stored.
    var accepted: Int?
    /// Events the destination already had (acknowledged like accepted ones).
    var duplicates: [String]?
    /// Events not stored.
    var rejected: [Rejected]?

    /// The answer in `body`; nil when it is empty or not such an object (everything accepted).
    static func parse(_ body: [UInt8]) -> BatchAnswer? {
        guard body.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return nil }
        return try? JSONDecoder().decode(BatchAnswer.self, from: Data(body))
    }

    /// Whether a rejection `code` means "drop the event" (`api.md`): `INVALID_*` and the
    /// material errors. `DUPLICATE_EVENT` is an acknowledgement; any other code keeps the event.
    static func drops(_ code: String) -> Bool {
        code.hasPrefix("INVALID_") || ["MATERIAL_ACCESS_DENIED", "SOURCE_DELETED", "TEMPORARY_MATERIAL_EXPIRED"].contains(code)
    }
}
