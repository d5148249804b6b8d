import TallySupport

/// Reachability set by hand, for tests and simulations.
public final class ManualReachability: Reachability {
    private let state = Locked<(reachable: Bool, observers: [@Sendable (Bool) -> Void])>((true, []))

    /// A network that is reachable when `reachable`.
    public init(reachable: Bool = true) {
        state.withLock { $0.reachable = reachable }
    }

    /// The current value.
    public var isReachable: Bool {
        state.withLock { $0.reachable }
    }

    /// Registers `onChange`.
    public func observe(_ onChange: @escaping @Sendable (Bool) -> Void) {
        state.withLock { $0.observers.append(onChange) }
    }

    /// Sets the value and tells the observers when it changed.
    public func set(reachable: Bool) {
        let observers = state.withLock { state -> [@Sendable (Bool) -> Void] in
            guard state.reachable != reachable else { return [] }
            state.reachable = reachable
            return state.observers
        }
        for observer in observers { observer(reachable) }
    }
}
