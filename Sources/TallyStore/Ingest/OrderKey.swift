/// How `metrics.md` orders events for "newest" and "earliest": timestamp, then sequence
/// (absent = 0), then the idempotency key compared by code point, as SQLite compares text.
struct OrderKey: Comparable, Sendable {
    var timestampMs: Int64
    var sequence: Int64
    var key: String

    static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        if lhs.timestampMs != rhs.timestampMs { return lhs.timestampMs < rhs.timestampMs }
        if lhs.sequence != rhs.sequence { return lhs.sequence < rhs.sequence }
        return lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
    }

    static func == (lhs: OrderKey, rhs: OrderKey) -> Bool {
        lhs.timestampMs == rhs.timestampMs && lhs.sequence == rhs.sequence && lhs.key.utf8.elementsEqual(rhs.key.utf8)
    }
}
