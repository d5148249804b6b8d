/// Whether the network can be reached, and a way to hear when that changes.
public protocol Reachability: Sendable {
    /// Whether a send could reach the network now.
    var isReachable: Bool { get }
    /// Calls `onChange` with the new value whenever reachability changes.
    func observe(_ onChange: @escaping @Sendable (Bool) -> Void)
}
