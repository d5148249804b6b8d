import NIOConcurrencyHelpers
import NIOCore

/// Actions to run when a connection's client goes away (closes its side, or the connection),
/// such as stopping the `/sql` statement it was waiting for. `RequestWatch` reports the event.
final class Disconnects: Sendable {
    private struct State {
        var next = 0
        var actions: [ObjectIdentifier: [Int: @Sendable () -> Void]] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// A registered action, for `remove`.
    struct Registration: Sendable {
        fileprivate let channel: ObjectIdentifier
        fileprivate let id: Int
    }

    /// Runs `action` once if the client of `channel` goes away before `remove` is called.
    func whenGone(_ channel: any Channel, _ action: @escaping @Sendable () -> Void) -> Registration {
        let key = ObjectIdentifier(channel)
        return state.withLockedValue { state in
            state.next += 1
            state.actions[key, default: [:]][state.next] = action
            return Registration(channel: key, id: state.next)
        }
    }

    /// Forgets `registration` (its request was answered).
    func remove(_ registration: Registration) {
        state.withLockedValue { state in
            state.actions[registration.channel]?[registration.id] = nil
            if state.actions[registration.channel]?.isEmpty == true { state.actions[registration.channel] = nil }
        }
    }

    /// The client of `channel` went away: runs and forgets its actions.
    func gone(_ channel: any Channel) {
        let actions = state.withLockedValue { $0.actions.removeValue(forKey: ObjectIdentifier(channel)) } ?? [:]
        for action in actions.values { action() }
    }
}
