import TallyEvents
import TallyKit
import TallySupport

/// A sink whose events become durable only when the test says so (or fail with its error):
/// lets a test look at what happens while a caller waits, without sleeping.
final class GatedEventSink: EventSink {
    private struct State {
        var events: [Event] = []
        var waiting: [CheckedContinuation<Void, any Error>] = []
        var watchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Every event enqueued so far.
    var events: [Event] {
        state.withLock { $0.events }
    }

    func enqueue(_ event: Event) -> EnqueueReceipt {
        state.withLock {
            $0.events.append(event)
            return EnqueueReceipt(sequence: UInt64($0.events.count))
        }
    }

    func waitUntilDurable(_ receipt: EnqueueReceipt) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let watchers = state.withLock { state in
                state.waiting.append(continuation)
                defer { state.watchers = [] }
                return state.watchers
            }
            for watcher in watchers { watcher.resume() }
        }
    }

    /// Returns once some caller is waiting for durability.
    func someoneWaits() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.waiting.isEmpty { state.watchers.append(continuation) }
                return !state.waiting.isEmpty
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends every wait: successfully, or by throwing `error`.
    func finishWaits(throwing error: (any Error)? = nil) {
        let waiting = state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting {
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
}
