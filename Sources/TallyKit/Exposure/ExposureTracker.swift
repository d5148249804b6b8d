import TallyEvents
import TallySupport

/// Detects exposures on one page instance and sends them to an ``EventSink``
/// (`exposure-detection`): an item is exposed when at least 2/3 of its area stays visible for
/// at least 1.5 s without a break, once per page instance.
///
/// Visible means inside the window and every clipping ancestor and not under an occluding view
/// (see ``ExposureLayout``). The tracker holds no timer: it evaluates on every input at
/// `clock.nowMs()`, so an item that stays still is exposed at the first ``tick()`` or other input
/// at or after its threshold. The event's `clientTimestampMs` is the instant the threshold was
/// reached (the start of the run + 1.5 s), `dwellMs` the run's length up to that input, and
/// `visibleRatio` the smallest share seen during the run.
///
/// Create one tracker per page (view controller) instance; feed it layouts on scroll (up to 30 a
/// second), ``tick()`` now and then while idle, and every ``PageTransition``. State is keyed by
/// ``ExposureItem/itemId``, so a refresh that moves, inserts or removes rows keeps exposed items
/// exposed. Safe to call from any thread.
public final class ExposureTracker: Sendable {
    /// How long an item must stay visible, in milliseconds.
    public static let minimumDwellMs: Int64 = 1_500
    /// A stay in the background longer than this (strictly) re-arms the page, in milliseconds.
    public static let backgroundRearmAfterMs: Int64 = 30_000

    private let sink: any EventSink
    private let clock: any TallyClock
    private let session: Locked<ExposureSession>

    /// A tracker for a page of kind `pageId`, not yet on screen (send ``PageTransition/appeared``
    /// when it shows). Events carry `common` (the user, platform, app version); ids are UUIDv7
    /// drawn from `random`.
    public init(pageId: String?, common: EventCommon = EventCommon(), sink: any EventSink, clock: any TallyClock,
                random: some RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.sink = sink
        self.clock = clock
        session = Locked(ExposureSession(pageId: pageId, common: common, random: random, nowMs: clock.nowMs()))
    }

    /// The current page instance: minted when the tracker starts and at every re-arm.
    public var pageInstanceId: String {
        session.withLock { $0.pageInstanceId }
    }

    /// Whether `itemId` has been exposed in the current page instance.
    public func hasExposed(_ itemId: String) -> Bool {
        session.withLock { $0.exposed.contains(itemId) }
    }

    /// The page now lays out as `layout` (after a scroll step, a layout pass or a data change).
    public func update(_ layout: ExposureLayout) {
        let now = clock.nowMs()
        send(session.withLock { $0.update(layout, nowMs: now) })
    }

    /// Lets time count with the layout unchanged: exposes items that have now stayed long enough.
    public func tick() {
        let now = clock.nowMs()
        send(session.withLock { $0.tick(nowMs: now) })
    }

    /// Records `transition`.
    public func handle(_ transition: PageTransition) {
        let now = clock.nowMs()
        send(session.withLock { $0.handle(transition, nowMs: now) })
    }

    private func send(_ events: [ExposureEvent]) {
        for event in events {
            sink.enqueue(.exposure(event))
        }
    }
}
