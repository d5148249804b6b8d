import TallyEvents
import TallySupport

/// Records named app events with free-form properties (`view_loaded`, `api_request_failed`, …)
/// as observability events, for the latency and top reports.
///
/// ``track(_:_:)`` never blocks on I/O: it builds the event (id, instant, properties as JSON
/// text) and hands it to the ``EventSink``, whose queue stores and uploads it in the background
/// (JSONEachRow + gzip to ClickHouse or to `report serve`). Safe to call from any thread.
///
/// Every event carries the launch's ``sessionId`` and the common fields (user, app version,
/// platform, time-zone offset) in force when it is tracked.
public final class ObservabilityTracker: Sendable {
    /// The app session: one per launch, shared by every event this tracker records.
    public let sessionId: String

    private let sink: any EventSink
    /// The time source of every event.
    let clock: any TallyClock
    private let state: Locked<State>

    /// What changes after creation: the common fields and the id generator.
    private struct State {
        var common: EventCommon
        var random: any RandomNumberGenerator
    }

    /// A tracker for one app launch.
    ///
    /// - Parameters:
    ///   - sink: where events go (the durable queue).
    ///   - clock: the time source of every event.
    ///   - common: user, app version, platform and time-zone offset written on every event.
    ///   - sessionId: the launch's session id; a new UUIDv7 when nil.
    ///   - random: the source of event ids' random bits (seeded in tests and simulations).
    public init(sink: any EventSink, clock: any TallyClock, common: EventCommon = EventCommon(),
                sessionId: String? = nil, random: some RandomNumberGenerator = Xoshiro256StarStar()) {
        var random: any RandomNumberGenerator = random
        self.sessionId = sessionId ?? UUIDv7.make(ms: clock.nowMs(), using: &random)
        self.sink = sink
        self.clock = clock
        self.state = Locked(State(common: common, random: random))
    }

    /// The common fields written on events tracked from now on.
    public var common: EventCommon {
        get { state.withLock { $0.common } }
        set { state.withLock { $0.common = newValue } }
    }

    /// Attributes events tracked from now on to `userId` (`""`: nobody).
    public func identify(userId: String) {
        state.withLock { $0.common.userId = userId }
    }

    /// Records the event `name` with `properties`, stamped with the clock's current instant.
    ///
    /// Returns the queue's receipt, or nil without recording anything when `name` is empty
    /// (an event without a name is invalid on the wire and would be dropped by the server).
    @discardableResult
    public func track(_ name: String, _ properties: [String: JSONValue] = [:]) -> EnqueueReceipt? {
        guard !name.isEmpty else { return nil }
        let timestampMs = clock.nowMs()
        let propertiesJSON = properties.isEmpty ? "{}" : JSONValue.objectText(properties)
        let (eventId, common) = state.withLock { state in
            (UUIDv7.make(ms: timestampMs, using: &state.random), state.common)
        }
        return sink.enqueue(.observability(ObservabilityEvent(
            eventId: eventId, timestampMs: timestampMs, eventName: name, sessionId: sessionId,
            propertiesJSON: propertiesJSON, common: common)))
    }
}
