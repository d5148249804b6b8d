/// How one array becomes another, in the form a collection view's batch update takes.
///
/// Apply it as a batch: remove `deletes` and the `from` side of `moves` (old indices), put the
/// `to` side of `moves` and the `inserts` (new indices) in place, and the values left over keep
/// their order in the remaining slots. `updates` (old indices) are values that stayed, by
/// identity, but whose content changed; such a value may also appear in `moves`.
public struct DiffResult: Sendable, Equatable {
    /// Old indices of values that are gone, ascending.
    public var deletes: [Int]
    /// New indices of values that are new, ascending.
    public var inserts: [Int]
    /// Values that changed place, by ascending new index.
    public var moves: [DiffMove]
    /// Old indices of values whose content changed, ascending.
    public var updates: [Int]

    /// A result made of the given changes.
    public init(deletes: [Int] = [], inserts: [Int] = [], moves: [DiffMove] = [], updates: [Int] = []) {
        self.deletes = deletes
        self.inserts = inserts
        self.moves = moves
        self.updates = updates
    }

    /// Whether the two arrays differ at all.
    public var hasChanges: Bool {
        !(deletes.isEmpty && inserts.isEmpty && moves.isEmpty && updates.isEmpty)
    }
}
