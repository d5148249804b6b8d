/// A value the list diff can follow from one array to the next: matched by identity, then
/// compared by content (IGListKit's `diffIdentifier` and `isEqualToDiffableObject`).
///
/// Two values with the same ``diffIdentifier`` are the same thing shown twice (a post before and
/// after its like count changed); ``isContentEqual(to:)`` says whether it must be redrawn.
public protocol Diffable {
    /// What identifies the value across arrays.
    associatedtype DiffIdentifier: Hashable

    /// The value's identity: stable for as long as it stands for the same thing.
    var diffIdentifier: DiffIdentifier { get }

    /// Whether `other`, which has the same identity, shows the same content.
    func isContentEqual(to other: Self) -> Bool
}

extension Diffable where Self: Equatable {
    /// Content equality is `==` for equatable values.
    public func isContentEqual(to other: Self) -> Bool {
        self == other
    }
}
