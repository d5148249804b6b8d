/// The default where no path monitor exists (Linux): always reachable; failed sends are retried.
public struct AlwaysReachable: Reachability {
    /// An always-reachable network.
    public init() {}

    /// Always true.
    public var isReachable: Bool { true }

    /// Never calls `onChange`: nothing changes.
    public func observe(_ onChange: @escaping @Sendable (Bool) -> Void) {}
}
