import TallyEvents
import TallySupport

/// An in-memory ``EventSink`` that keeps every event in order: durable at once, for tests
/// of code that produces events.
public final class RecordingEventSink: EventSink {
    private let state = Locked<[Event]>([])

    /// An empty sink.
    public init() {}

    /// Every event enqueued so far, in order.
    public var events: [Event] {
        state.withLock { $0 }
    }

    /// Appends `event`.
    @discardableResult
    public func enqueue(_ event: Event) -> EnqueueReceipt {
        state.withLock {
            $0.append(event)
            return EnqueueReceipt(sequence: UInt64($0.count))
        }
    }

    /// Returns at once: recorded events are as durable as this sink gets.
    public func waitUntilDurable(_ receipt: EnqueueReceipt) async throws {}

    /// Forgets every recorded event.
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }
}
