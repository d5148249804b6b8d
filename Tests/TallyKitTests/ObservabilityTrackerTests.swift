import TallyEvents
import TallyKit
import TallyTestSupport
import Testing

struct ObservabilityTrackerTests {
    private let clock = ManualClock(startMs: 1_763_700_000_000)
    private let sink = RecordingEventSink()
    private let common = EventCommon(userId: "u-1", timezoneOffsetMinutes: 480, platform: "ios", appVersion: "2.3.0")

    private var events: [ObservabilityEvent] {
        sink.events.compactMap { if case .observability(let event) = $0 { event } else { nil } }
    }

    @Test func tracksNamedEventsWithPropertiesAndCommonFields() {
        let tracker = ObservabilityTracker(sink: sink, clock: clock, common: common, random: SplitMix64(seed: 1))
        tracker.track("app_launch")
        clock.advance(byMs: 250)
        let receipt = tracker.track("search", ["query": "线性代数", "results": 12, "filters": ["kb-1", "kb-2"]])

        #expect(receipt == EnqueueReceipt(sequence: 2))
        let events = events
        #expect(events.map(\.eventName) == ["app_launch", "search"])
        #expect(events.map(\.timestampMs) == [1_763_700_000_000, 1_763_700_000_250])
        #expect(events[0].propertiesJSON == "{}")
        #expect(events[1].propertiesJSON == #"{"filters":["kb-1","kb-2"],"query":"线性代数","results":12}"#)
        #expect(events.allSatisfy { $0.sessionId == tracker.sessionId && $0.common == common })
        #expect(events[0].eventId != events[1].eventId)
        #expect(events[1].eventId.hasPrefix("019aa4b6-45fa-7"))  // 1_763_700_000_250 ms
    }

    @Test func oneSessionPerLaunch() {
        let first = ObservabilityTracker(sink: sink, clock: clock, random: SplitMix64(seed: 1))
        let second = ObservabilityTracker(sink: sink, clock: clock, random: SplitMix64(seed: 2))
        let given = ObservabilityTracker(sink: sink, clock: clock, sessionId: "s-1")
        #expect(first.sessionId != second.sessionId)
        #expect(first.sessionId.count == 36)
        #expect(given.sessionId == "s-1")
    }

    @Test func anEmptyNameIsNotRecorded() {
        let tracker = ObservabilityTracker(sink: sink, clock: clock)
        #expect(tracker.track("", ["a": 1]) == nil)
        #expect(sink.events.isEmpty)
    }

    @Test func identifyAppliesToLaterEvents() {
        let tracker = ObservabilityTracker(sink: sink, clock: clock, common: common)
        tracker.track("before")
        tracker.identify(userId: "u-2")
        tracker.track("after")
        #expect(events.map(\.common.userId) == ["u-1", "u-2"])
        #expect(tracker.common.appVersion == "2.3.0")
    }

    @Test func latencyEventsCarryTheFieldsTheReportsRead() {
        let tracker = ObservabilityTracker(sink: sink, clock: clock, common: common)
        tracker.trackViewLoaded("home_view", loadDurationMs: 420)
        tracker.trackRequestFailed(path: "/learning/summary", status: 503, durationMs: 1_200, properties: ["retry": 1])
        let start = clock.nowMs()
        clock.advance(byMs: 87)
        tracker.trackDuration("search_finished", field: "duration_ms", since: start, properties: ["results": 3])

        let events = events
        #expect(events.map(\.eventName) == ["view_loaded", "api_request_failed", "search_finished"])
        #expect(events.map(\.propertiesJSON) == [
            #"{"load_duration_ms":420,"view_name":"home_view"}"#,
            #"{"duration_ms":1200,"path":"/learning/summary","retry":1,"status":503}"#,
            #"{"duration_ms":87,"results":3}"#,
        ])
    }

    @Test func tracksFromManyThreads() async {
        let tracker = ObservabilityTracker(sink: sink, clock: clock)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<250 { tracker.track("tap", ["worker": .int(Int64(worker)), "index": .int(Int64(index))]) }
                }
            }
        }
        #expect(events.count == 2_000)
        #expect(Set(events.map(\.eventId)).count == 2_000)
    }
}
