import Foundation
import TallyEvents
import TallySupport

/// Turns a reader's life cycle into reading events: sessions, heartbeats of active time,
/// debounced positions, mark-as-read (`ios-learning-collection-design`).
///
/// - A session starts at ``openMaterial(_:at:)`` (`material_opened`) and ends at
///   ``closeMaterial()`` (`material_closed`). Every event carries the session's
///   `clientSessionId`, a `sequence` increasing from 1, the material's id, kind, title and
///   knowledge base, and the latest position.
/// - Time counts only while a session is open, not paused (``pause()``/``resume()``) and the
///   app is in the foreground (``appDidEnterBackground()``/``appWillEnterForeground()``).
///   Every 15 s of such time a `heartbeat` carries `activeSecondsDelta` 15; pause and
///   background send the whole seconds counted since (the rest is kept), close sends the
///   remainder rounded to the nearest second.
/// - ``updatePosition(_:)`` is debounced (``ReadingTrackerConfiguration/positionDebounceMs``).
/// - Timers run on the injected clock: nothing fires until ``tick()`` (or any other call),
///   which emits each due heartbeat and position stamped with the instant it fell due. In an
///   app, ``ReadingTickDriver`` calls ``tick()`` every second; simulations call it themselves.
/// - The open session's state is saved in a ``ReadingStateStore`` at every event, state change
///   and checkpoint (1 s). A tracker created at launch closes a session the previous launch
///   left open (the app was killed): at its last recorded activity, with the active time
///   recorded up to then, continuing its sequence.
///
/// Thread-safe; calls return after enqueueing (no network) and, when the state changed, one
/// small atomic file write.
public final class ReadingTracker: Sendable {
    private let clock: any TallyClock
    private let core: Locked<ReadingTrackerCore>

    /// A tracker for this launch; closes the session a previous launch left open in `store`.
    ///
    /// - Parameters:
    ///   - sink: where events go (the durable queue).
    ///   - clock: the time source of every event and timer.
    ///   - store: where the open session's state is kept between launches (one tracker per store).
    ///   - configuration: timings and the common fields written on every event.
    ///   - random: the source of ids' random bits (seeded in tests and simulations).
    ///   - onStateError: told when the store cannot be read or written; the tracker goes on,
    ///     and only the recovery of a killed session depends on the store.
    public init(sink: any EventSink, clock: any TallyClock, store: any ReadingStateStore,
                configuration: ReadingTrackerConfiguration = ReadingTrackerConfiguration(),
                random: some RandomNumberGenerator = Xoshiro256StarStar(),
                onStateError: @escaping @Sendable (any Error) -> Void = { _ in }) {
        self.clock = clock
        var core = ReadingTrackerCore(configuration: configuration, sink: sink, store: store, onStateError: onStateError,
                                      common: configuration.common, random: random)
        core.closeStaleSession()
        self.core = Locked(core)
    }

    /// A tracker keeping its state in `reading-session.json` in `stateDirectory`.
    public convenience init(sink: any EventSink, clock: any TallyClock, stateDirectory: URL,
                            configuration: ReadingTrackerConfiguration = ReadingTrackerConfiguration(),
                            random: some RandomNumberGenerator = Xoshiro256StarStar(),
                            onStateError: @escaping @Sendable (any Error) -> Void = { _ in }) throws {
        self.init(sink: sink, clock: clock, store: try FileReadingStateStore(directory: stateDirectory),
                  configuration: configuration, random: random, onStateError: onStateError)
    }

    /// The open session's `clientSessionId`, if a material is open.
    public var sessionId: String? {
        core.withLock { $0.session?.sessionId }
    }

    /// The open session's saved state (material, sequence, unsent time), if a material is open.
    public var session: ReadingSessionRecord? {
        core.withLock { $0.session }
    }

    /// The common fields written on events from now on.
    public var common: EventCommon {
        get { core.withLock { $0.common } }
        set { core.withLock { $0.common = newValue } }
    }

    /// Starts a session on `material` (`material_opened`, carrying `position` if given, such as
    /// a restored one). Closes the open session first if it reads another material; does
    /// nothing if the same material is already open.
    public func openMaterial(_ material: ReadingMaterial, at position: ReadingPosition? = nil) {
        run { $0.open(material, at: position, now: $1) }
    }

    /// Ends the session (`material_closed` with the active seconds not yet sent).
    public func closeMaterial() {
        run { $0.close(now: $1) }
    }

    /// Stops counting time (an overlay, a sheet, the reader stepped away).
    public func pause() {
        run { $0.pause(now: $1) }
    }

    /// Counts time again after ``pause()``.
    public func resume() {
        run { $0.resume(now: $1) }
    }

    /// The app left the foreground: time stops counting and the seconds counted are sent.
    public func appDidEnterBackground() {
        run { $0.enterBackground(now: $1) }
    }

    /// The app came back: time counts again, or, after more than
    /// ``ReadingTrackerConfiguration/backgroundSessionTimeoutMs`` away, the old session is
    /// closed at the instant the app left and a new one opens on the same material.
    public func appWillEnterForeground() {
        run { $0.enterForeground(now: $1) }
    }

    /// The reader moved: sent as `position_changed` after the debounce window unless an event
    /// carries it first.
    public func updatePosition(_ position: ReadingPosition) {
        run { $0.updatePosition(position, now: $1) }
    }

    /// The reader marked the material as read (`marked_as_read`); the session stays open.
    public func markAsRead() {
        run { $0.markAsRead(now: $1) }
    }

    /// Emits the heartbeats and debounced position due by now and saves a checkpoint if due.
    public func tick() {
        run { $0.tick(now: $1) }
    }

    /// Runs `command` on the state with the clock's current instant.
    private func run(_ command: (inout ReadingTrackerCore, Int64) -> Void) {
        let now = clock.nowMs()
        core.withLock { command(&$0, now) }
    }
}
