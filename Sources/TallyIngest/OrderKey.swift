/// How `metrics.md` orders events for "newest" and "earliest": timestamp, then sequence
/// (absent = 0), then the idempotency key compared by code point, as SQLite compares text.
package struct OrderKey: Comparable, Sendable {
    package var timestampMs: Int64
    package var sequence: Int64
    package var key: String

    package init(timestampMs: Int64, sequence: Int64, key: String) {
        self.timestampMs = timestampMs
        self.sequence = sequence
        self.key = key
    }

    package static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        if lhs.timestampMs != rhs.timestampMs { return lhs.timestampMs < rhs.timestampMs }
        if lhs.sequence != rhs.sequence { return lhs.sequence < rhs.sequence }
        return lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
    }

    package static func == (lhs: OrderKey, rhs: OrderKey) -> Bool {
        lhs.timestampMs == rhs.timestampMs && lhs.sequence == rhs.sequence && lhs.key.utf8.elementsEqual(rhs.key.utf8)
    }
}
