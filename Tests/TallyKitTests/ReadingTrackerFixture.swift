import TallyEvents
import TallyKit
import TallyTestSupport

/// A reading tracker on a manual clock, a recording sink and an in-memory store.
struct ReadingTrackerFixture {
    static let start: Int64 = 1_763_700_000_000
    static let material = ReadingMaterial(materialId: "m-42", title: "线性代数", knowledgeBaseId: "kb-1")

    let clock = ManualClock(startMs: start)
    let sink = RecordingEventSink()
    let store: any ReadingStateStore
    let tracker: ReadingTracker

    init(store: any ReadingStateStore = InMemoryReadingStateStore(),
         configuration: ReadingTrackerConfiguration = ReadingTrackerConfiguration(common: EventCommon(userId: "u-1"))) {
        self.store = store
        tracker = ReadingTracker(sink: sink, clock: clock, store: store, configuration: configuration,
                                 random: SplitMix64(seed: 7))
    }

    /// A tracker of a new launch on the same store and clock, recording into `sink`.
    func relaunch(into sink: RecordingEventSink) -> ReadingTracker {
        ReadingTracker(sink: sink, clock: clock, store: store, random: SplitMix64(seed: 8))
    }

    /// The reading events recorded so far.
    var events: [ReadingEvent] {
        sink.events.compactMap { if case .reading(let event) = $0 { event } else { nil } }
    }

    /// Milliseconds since the fixture's start of each event.
    var offsets: [Int64] {
        events.map { $0.clientTimestampMs - Self.start }
    }

    /// Moves the clock by `ms` in steps of `step`, ticking after each.
    func run(forMs ms: Int64, step: Int64 = 1_000) {
        var left = ms
        while left > 0 {
            let move = min(step, left)
            clock.advance(byMs: move)
            tracker.tick()
            left -= move
        }
    }
}
