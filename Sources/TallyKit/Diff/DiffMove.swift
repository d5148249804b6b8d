/// A value that stays in the list but changes place.
public struct DiffMove: Sendable, Hashable {
    /// Its index in the old array.
    public var from: Int
    /// Its index in the new array.
    public var to: Int

    /// A move from old index `from` to new index `to`.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}
