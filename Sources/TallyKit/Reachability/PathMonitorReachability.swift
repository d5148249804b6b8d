#if canImport(Network)
import Foundation
import Network
import TallySupport

/// Reachability from `NWPathMonitor` (Apple platforms). Its state is behind a lock; the monitor
/// is only touched at creation and in `deinit`.
public final class PathMonitorReachability: Reachability, @unchecked Sendable {
    private let monitor = NWPathMonitor()
    private let state = Locked<(reachable: Bool, observers: [@Sendable (Bool) -> Void])>((true, []))

    /// Starts monitoring on a queue of its own.
    public init() {
        monitor.pathUpdateHandler = { [state] path in
            let reachable = path.status == .satisfied
            let observers = state.withLock { state -> [@Sendable (Bool) -> Void] in
                guard state.reachable != reachable else { return [] }
                state.reachable = reachable
                return state.observers
            }
            for observer in observers { observer(reachable) }
        }
        monitor.start(queue: DispatchQueue(label: "TallyKit.PathMonitorReachability"))
    }

    deinit {
        monitor.cancel()
    }

    /// Whether the current path is satisfied.
    public var isReachable: Bool {
        state.withLock { $0.reachable }
    }

    /// Registers `onChange`.
    public func observe(_ onChange: @escaping @Sendable (Bool) -> Void) {
        state.withLock { $0.observers.append(onChange) }
    }
}
#endif
