import TallyEvents
import TallyKit
import TallyTestSupport
import Testing

@MainActor
struct FeedbackViewModelTests {
    private struct DiskFull: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    private let clock = ManualClock(startMs: 1_763_700_000_000)
    private let context = try! RecommendationContext(
        impressionId: "imp-1", modelInfo: "rec-v12", feedPosition: 3,
        businessPayload: ["refreshId": "r-9", "itemId": "item-7"])

    private func model(_ sink: any EventSink, reasons: [String] = ["重复看到", "不感兴趣"]) -> FeedbackViewModel {
        FeedbackViewModel(context: context, sink: sink, clock: clock, common: EventCommon(userId: "u-1"),
                          reasons: reasons, random: SplitMix64(seed: 5))
    }

    private func feedback(_ events: [Event]) -> [FeedbackEvent] {
        events.compactMap { if case .feedback(let event) = $0 { event } else { nil } }
    }

    @Test func aLikeSucceedsOnlyOnceDurable() async {
        let sink = GatedEventSink()
        let model = model(sink)
        #expect(model.state == .idle)
        let tap = Task { await model.like() }
        await sink.someoneWaits()
        #expect(model.state == .submitting)
        #expect(model.reaction == .neutral)

        sink.finishWaits()
        await tap.value
        #expect(model.state == .succeeded(.like))
        #expect(model.reaction == .like)

        let events = feedback(sink.events)
        #expect(events.count == 1)
        let event = events[0]
        #expect(event.kind == .like && event.reason == nil)
        #expect(event.timestampMs == 1_763_700_000_000)
        #expect(event.impressionId == "imp-1" && event.modelInfo == "rec-v12" && event.feedPosition == 3)
        #expect(event.itemId == "item-7")
        #expect(event.contextJSON == #"{"businessPayload":{"itemId":"item-7","refreshId":"r-9"},"#
            + #""feedPosition":3,"impressionId":"imp-1","modelInfo":"rec-v12"}"#)
        #expect(event.common.userId == "u-1")
    }

    @Test func aSecondTapWhileSubmittingIsIgnored() async {
        let sink = GatedEventSink()
        let model = model(sink)
        let tap = Task { await model.like() }
        await sink.someoneWaits()
        await model.like()
        await model.dislike()
        await model.undo()
        #expect(model.state == .submitting)
        sink.finishWaits()
        await tap.value
        await model.like()
        #expect(feedback(sink.events).map(\.kind) == [.like])
        #expect(model.state == .succeeded(.like))
    }

    @Test func aDislikeAsksForAReason() async {
        let sink = RecordingEventSink()
        let model = model(sink)
        await model.dislike()
        #expect(model.state == .choosingReason)
        await model.like()
        #expect(model.state == .choosingReason)
        await model.chooseReason("重复看到")
        #expect(model.state == .succeeded(.dislike))
        await model.dislike()
        #expect(model.state == .succeeded(.dislike))

        let events = feedback(sink.events)
        #expect(events.map(\.kind) == [.dislike])
        #expect(events.map(\.reason) == ["重复看到"])
    }

    @Test func aReasonCanBeSkippedOrThePanelDismissed() async {
        let sink = RecordingEventSink()
        let model = model(sink)
        await model.like()
        await model.dislike()
        model.dismissReasons()
        #expect(model.state == .succeeded(.like))
        await model.dislike()
        await model.chooseReason(nil)
        #expect(model.state == .succeeded(.dislike))
        await model.chooseReason("不感兴趣")

        let events = feedback(sink.events)
        #expect(events.map(\.kind) == [.like, .dislike])
        #expect(events.map(\.reason) == [nil, nil])
    }

    @Test func withoutReasonsADislikeIsSavedAtOnce() async {
        let sink = RecordingEventSink()
        let model = model(sink, reasons: [])
        await model.dislike()
        #expect(model.state == .succeeded(.dislike))
        #expect(feedback(sink.events).map(\.kind) == [.dislike])
    }

    @Test func undoTakesTheReactionBackAfterTheLastOne() async {
        let sink = RecordingEventSink()
        let model = model(sink)
        await model.undo()
        #expect(sink.events.isEmpty)
        await model.like()
        await model.undo()
        #expect(model.state == .succeeded(.neutral))
        #expect(model.reaction == .neutral)
        await model.undo()
        await model.like()

        let events = feedback(sink.events)
        #expect(events.map(\.kind) == [.like, .neutral, .like])
        // Taps within one millisecond still order as they were made.
        #expect(events.map(\.timestampMs) == [1_763_700_000_000, 1_763_700_000_001, 1_763_700_000_002])
        #expect(Set(events.map(\.id)).count == 3)
    }

    @Test func aFailureCanBeRetriedWithTheSameEvent() async {
        let sink = GatedEventSink()
        let model = model(sink)
        let tap = Task { await model.like() }
        await sink.someoneWaits()
        sink.finishWaits(throwing: DiskFull())
        await tap.value
        #expect(model.state == .failed("Your feedback could not be saved: the disk is full"))
        #expect(model.reaction == .neutral)

        clock.advance(byMs: 5_000)
        let retry = Task { await model.retry() }
        await sink.someoneWaits()
        sink.finishWaits()
        await retry.value
        #expect(model.state == .succeeded(.like))
        let events = feedback(sink.events)
        #expect(events.count == 2)
        #expect(events[0] == events[1])
    }

    @Test func aSavedReactionStartsAsSucceeded() async {
        let sink = RecordingEventSink()
        let model = FeedbackViewModel(context: context, sink: sink, clock: clock, reaction: .dislike)
        #expect(model.state == .succeeded(.dislike))
        await model.retry()
        await model.chooseReason("x")
        model.dismissReasons()
        #expect(sink.events.isEmpty)
    }

    @Test func aContextTheWireWouldRejectIsAnError() throws {
        #expect(throws: RecommendationContextError(field: "impressionId", message: "impressionId must not be empty")) {
            try RecommendationContext(impressionId: "", modelInfo: "rec-v12", feedPosition: 0)
        }
        #expect(throws: RecommendationContextError(field: "modelInfo", message: "modelInfo must not be empty")) {
            try RecommendationContext(impressionId: "imp-1", modelInfo: "", feedPosition: 0)
        }
        #expect(throws: RecommendationContextError(field: "feedPosition", message: "feedPosition must be >= 0, got -1")) {
            try RecommendationContext(impressionId: "imp-1", modelInfo: "rec-v12", feedPosition: -1)
        }
        #expect(try RecommendationContext(impressionId: "i", modelInfo: "m", feedPosition: 0).jsonText
            == #"{"feedPosition":0,"impressionId":"i","modelInfo":"m"}"#)
    }
}
