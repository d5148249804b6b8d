import TallyEvents
import TallyKit
import TallyTestSupport

/// A page 400 × 800 pt with an exposure tracker on a manual clock, already on screen.
final class ExposureFixture {
    static let window = Rect(x: 0, y: 0, width: 400, height: 800)
    let clock = ManualClock(startMs: 1_763_700_000_000)
    let sink = RecordingEventSink()
    let tracker: ExposureTracker

    init(pageId: String? = "home", userId: String = "u-1", appeared: Bool = true) {
        tracker = ExposureTracker(pageId: pageId, common: EventCommon(userId: userId), sink: sink, clock: clock,
                                  random: SplitMix64(seed: 3))
        if appeared { tracker.handle(.appeared) }
    }

    /// The exposures sent so far.
    var exposures: [ExposureEvent] {
        sink.events.compactMap { event in
            if case .exposure(let exposure) = event { return exposure }
            return nil
        }
    }

    /// Milliseconds since the fixture started.
    var elapsedMs: Int64 { clock.nowMs() - 1_763_700_000_000 }

    /// Moves the clock to `ms` after the start.
    func at(_ ms: Int64) {
        clock.set(toMs: 1_763_700_000_000 + ms)
    }

    /// Lays out the items named, each a full-width 200 pt row stacked from the top of the window.
    func show(_ itemIds: [String], context: (String) -> ExposureContext? = { _ in nil }) {
        tracker.update(ExposureLayout(window: Self.window, items: itemIds.enumerated().map { row, itemId in
            ExposureItem(itemId: itemId, frame: Rect(x: 0, y: Double(row) * 200, width: 400, height: 200),
                         clips: [Self.window], context: context(itemId))
        }))
    }
}
