
/// A `material_state` row, or several merged (all users together).
public struct MaterialState {
    /// An event's place in the "newest" order: timestamp, then sequence, then idempotency key.
    package struct Newest {
        var ts: Int64
        var seq: Int64
        var key: String

        /// Creates an order key.
        package init(ts: Int64, seq: Int64, key: String) {
            self.ts = ts
            self.seq = seq
            self.key = key
        }

        func isNewer(than other: Newest) -> Bool {
            if isLater(than: other) { return true }
            if other.isLater(than: self) { return false }
            return other.key.utf8.lexicographicallyPrecedes(key.utf8)
        }

        /// Later by timestamp, then sequence only: how two materials compare (`metrics.md`,
        /// continue-learning: their idempotency keys are not compared).
        func isLater(than other: Newest) -> Bool {
            ts != other.ts ? ts > other.ts : seq > other.seq
        }
    }

    package var materialId: String
    var activeSeconds: Int
    var completions: Int
    var last: Newest
    var targetType: String
    var title: (order: Newest, value: String)?
    var position: (order: Newest, value: MaterialPosition)?

    /// Creates a state from its parts.
    package init(materialId: String, activeSeconds: Int, completions: Int, last: Newest, targetType: String,
                 title: (order: Newest, value: String)?, position: (order: Newest, value: MaterialPosition)?) {
        self.materialId = materialId
        self.activeSeconds = activeSeconds
        self.completions = completions
        self.last = last
        self.targetType = targetType
        self.title = title
        self.position = position
    }

    /// Folds another user's row of the same material into this one.
    package mutating func merge(_ other: MaterialState) {
        activeSeconds += other.activeSeconds
        completions += other.completions
        if other.last.isNewer(than: last) {
            last = other.last
            targetType = other.targetType
        }
        if let theirs = other.title, title.map({ theirs.order.isNewer(than: $0.order) }) ?? true {
            title = theirs
        }
        if let theirs = other.position, position.map({ theirs.order.isNewer(than: $0.order) }) ?? true {
            position = theirs
        }
    }
}
