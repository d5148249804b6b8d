import Testing
import TallyEvents

@Suite("Wire JSON encoding")
struct WireJSONRoundTripTests {
    /// Lines of every family, with unknown members, escapes and non-ASCII text.
    static let lines: [String] = [
        #"{"eventId":"6f1c","clientSessionId":"s-9","materialId":"m-42","eventType":"heartbeat","#
            + #""position":{"page":3,"pageCount":10,"progress":0.3},"activeSecondsDelta":15,"#
            + #""clientTimestampMs":1763700000000,"sequence":7,"readingTargetType":"temporary_file","#
            + #""platform":"ios","appVersion":"2.3.0","clientTimezoneOffsetMinutes":480,"userId":"u-1","title":"线性代数 \"二\"\n","knowledgeBaseId":"kb-1","deviceModel":"iPhone15,2","flags":[1,{"a":null}]}"#,
        Validation.reading(),
        Validation.reading(#""position":{"page":1,"pageCount":4}"#),
        #"{"id":"0b7e","timestamp":"2026-11-20T08:00:00.123Z","feedbackType":"dislike","reason":"重复看到","#
            + #""context":{"impressionId":"imp-1","modelInfo":"rec-v12","feedPosition":3,"#
            + #""businessPayload":{"refreshId":"r-9","itemId":"item-7"}},"userId":"u-1","source":"feed\ttab"}"#,
        Validation.feedback(),
        #"{"eventId":"a1","eventType":"exposure","clientTimestampMs":1763700001500,"userId":"u-1","#
            + #""pageId":"channel","pageInstanceId":"p-77","itemId":"item-7","impressionId":"imp-1","#
            + #""modelInfo":"rec-v12","feedPosition":3,"visibleRatio":0.81,"dwellMs":1620,"experiment":"b"}"#,
        Validation.exposure(),
        #"{"eventId":"9c","timestamp":1763700000000,"eventName":"view_loaded","sessionId":"s-1","#
            + #""userId":"u-1","properties":{"view_name":"home_view","load_duration_ms":420,"app_version":"2.3.0"}}"#,
        Validation.observability(#""clientTimezoneOffsetMinutes":-300,"\u0001odd key":"\u0000""#),
    ]

    @Test("validate, encode, validate gives the same event", arguments: lines)
    func roundTrip(line: String) throws {
        let event = try #require(Validation.event(line))
        let encoded = String(decoding: event.wireJSON(), as: UTF8.self)
        #expect(!encoded.contains("\n"))
        #expect(Validation.event(encoded) == event, "\(encoded)")
    }

    @Test("every family round-trips", arguments: EventFamily.allCases)
    func familyCovered(family: EventFamily) {
        #expect(Self.lines.compactMap(Validation.event).contains { $0.family == family })
    }

    @Test("events built by a kit encode to what events.md describes")
    func kitBuiltEvents() throws {
        let feedback = FeedbackEvent(id: "f-9", timestampMs: 1_763_700_000_007, kind: .like, impressionId: "imp-2",
                                     modelInfo: "rec-v3", feedPosition: 0, itemId: "item-1",
                                     common: EventCommon(userId: "u-2"))
        let text = String(decoding: Event.feedback(feedback).wireJSON(), as: UTF8.self)
        #expect(text == #"{"id":"f-9","timestamp":"2025-11-21T04:40:00.007Z","feedbackType":"like","#
            + #""context":{"impressionId":"imp-2","modelInfo":"rec-v3","feedPosition":0,"businessPayload":{"itemId":"item-1"}},"#
            + #""userId":"u-2"}"#)
        guard case .feedback(let read) = try #require(Validation.event(text)) else {
            Issue.record("not feedback")
            return
        }
        #expect(read.timestampMs == feedback.timestampMs && read.itemId == "item-1" && read.feedPosition == 0)

        let reading = ReadingEvent(eventId: "r-2", materialId: "m-1", kind: .positionChanged, clientTimestampMs: 5,
                                   progress: 0.25)
        guard case .reading(let readBack) = try #require(Validation.event(String(decoding: Event.reading(reading).wireJSON(), as: UTF8.self))) else {
            Issue.record("not reading")
            return
        }
        #expect(readBack.progress == 0.25)
    }

    @Test("extraJSON with blanks or no members splices cleanly")
    func extraSplicing() {
        let common = EventCommon(extraJSON: "  { \"a\" : 1 }  ")
        let event = Event.observability(ObservabilityEvent(eventId: "o", timestampMs: 1, eventName: "n", sessionId: "s", common: common))
        #expect(String(decoding: event.wireJSON(), as: UTF8.self)
            == #"{"eventId":"o","timestamp":1,"eventName":"n","sessionId":"s","properties":{},"a" : 1}"#)
        let empty = Event.observability(ObservabilityEvent(eventId: "o", timestampMs: 1, eventName: "n", sessionId: "s",
                                                           common: EventCommon(extraJSON: "{ }")))
        #expect(String(decoding: empty.wireJSON(), as: UTF8.self)
            == #"{"eventId":"o","timestamp":1,"eventName":"n","sessionId":"s","properties":{}}"#)
    }
}
