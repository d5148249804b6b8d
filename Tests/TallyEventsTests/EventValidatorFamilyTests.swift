import Testing
import TallyEvents

@Suite("EventValidator families")
struct EventValidatorFamilyTests {
    @Test("reads a full reading event")
    func reading() {
        let line = #"{"eventId":"6f1c","clientSessionId":"s-9","materialId":"m-42","eventType":"heartbeat","#
            + #""position":{"page":3,"pageCount":10,"progress":0.3},"activeSecondsDelta":15,"#
            + #""clientTimestampMs":1763700000000,"sequence":7,"readingTargetType":"knowledge_source","#
            + #""platform":"ios","appVersion":"2.3.0","clientTimezoneOffsetMinutes":480,"userId":"u-1","title":"线性代数","knowledgeBaseId":"kb-1"}"#
        let expected = ReadingEvent(
            eventId: "6f1c", clientSessionId: "s-9", materialId: "m-42", kind: .heartbeat,
            clientTimestampMs: 1_763_700_000_000, sequence: 7, activeSecondsDelta: 15,
            positionJSON: #"{"page":3,"pageCount":10,"progress":0.3}"#, progress: 0.3, targetType: .knowledgeSource,
            title: "线性代数", knowledgeBaseId: "kb-1",
            common: EventCommon(userId: "u-1", timezoneOffsetMinutes: 480, platform: "ios", appVersion: "2.3.0"))
        #expect(Validation.event(line) == .reading(expected))
    }

    @Test("fills reading defaults")
    func readingDefaults() {
        let expected = ReadingEvent(eventId: "r-1", materialId: "m-01", kind: .heartbeat, clientTimestampMs: 1_795_100_000_000)
        #expect(Validation.event(Validation.reading()) == .reading(expected))
        let nulls = Validation.reading(#""activeSecondsDelta":null,"userId":null,"clientTimezoneOffsetMinutes":null,"#
            + #""position":null,"readingTargetType":null,"sequence":null,"title":null,"platform":null"#)
        #expect(Validation.event(nulls) == .reading(expected))
    }

    @Test("a null family field is absent: eventName, feedbackType and materialId decide nothing")
    func nullFamilyFields() {
        guard case .reading(let reading) = Validation.event(Validation.reading(#""eventName":null,"feedbackType":null"#)) else {
            Issue.record("a reading event with a null eventName is not a reading event")
            return
        }
        #expect(reading.eventId == "r-1")
        #expect(reading.kind == .heartbeat)
        guard case .feedback(let feedback) = Validation.event(Validation.feedback(#""eventName":null"#)) else {
            Issue.record("feedback with a null eventName is not feedback")
            return
        }
        #expect(feedback.id == "f-1")
        #expect(Validation.rejection(#"{"eventId":"e","materialId":null,"eventType":"heartbeat"}"#)?.code == .invalidEventType)
        #expect(Validation.rejection(#"{"eventId":"e","eventName":null,"feedbackType":null}"#)?.eventKey == "e")
    }

    @Test("knows every reading event type", arguments: ReadingEvent.Kind.allCases)
    func readingKinds(_ kind: ReadingEvent.Kind) {
        guard case .reading(let event) = Validation.event(Validation.reading("\"eventType\":\"\(kind.rawValue)\"")) else {
            Issue.record("rejected \(kind)")
            return
        }
        #expect(event.kind == kind)
    }

    @Test("derives progress from the position", arguments: [
        (#"{"page":15,"pageCount":27}"#, Double?.some(15.0 / 27.0)),
        (#"{"page":15,"pageCount":27,"progress":0.5}"#, 0.5),
        (#"{"page":15,"pageCount":27,"progress":null}"#, 15.0 / 27.0),
        (#"{"progress":0}"#, 0),
        (#"{"progress":1}"#, 1),
        (#"{"page":30,"pageCount":27}"#, 1),
        (#"{"page":-3,"pageCount":27}"#, 0),
        (#"{"page":3,"pageCount":0}"#, nil),
        (#"{"page":3,"pageCount":-1}"#, nil),
        (#"{"page":"3","pageCount":10}"#, nil),
        (#"{"page":3}"#, nil),
        (#"{}"#, nil),
        (#"{"cfi":"/6/4!/2"}"#, nil),
    ])
    func progress(_ position: String, _ expected: Double?) {
        guard case .reading(let event) = Validation.event(Validation.reading("\"position\":\(position)")) else {
            Issue.record("rejected \(position)")
            return
        }
        #expect(event.progress == expected)
        #expect(event.positionJSON == position)
    }

    @Test("keeps the position text verbatim")
    func positionVerbatim() {
        let position = #"{ "page" : 3, "pageCount":10 , "anchor":"\u00e9", "nested":{"a":[1,2]} }"#
        guard case .reading(let event) = Validation.event(Validation.reading("\"position\":\(position)")) else {
            Issue.record("rejected")
            return
        }
        #expect(event.positionJSON == position)
        #expect(event.progress == 0.3)
    }

    @Test("accepts integral numbers written with a fraction or exponent")
    func integralNumbers() {
        let line = Validation.reading(#""activeSecondsDelta":15.0,"clientTimestampMs":1.7951e12,"sequence":7e0,"clientTimezoneOffsetMinutes":-720.0"#)
        guard case .reading(let event) = Validation.event(line) else {
            Issue.record("rejected")
            return
        }
        #expect(event.activeSecondsDelta == 15)
        #expect(event.clientTimestampMs == 1_795_100_000_000)
        #expect(event.sequence == 7)
        #expect(event.common.timezoneOffsetMinutes == -720)
    }

    @Test("reads a full feedback event, with an ISO or millisecond timestamp")
    func feedback() {
        let line = #"{"id":"0b7e","timestamp":"2026-11-20T08:00:00Z","feedbackType":"dislike","reason":"重复看到","#
            + #""context":{"impressionId":"imp-1","modelInfo":"rec-v12","feedPosition":3,"#
            + #""businessPayload":{"refreshId":"r-9","itemId":"item-7"}},"userId":"u-1","clientTimezoneOffsetMinutes":480}"#
        let expected = FeedbackEvent(
            id: "0b7e", timestampMs: 1_795_161_600_000, kind: .dislike, reason: "重复看到", impressionId: "imp-1",
            modelInfo: "rec-v12", feedPosition: 3, itemId: "item-7",
            contextJSON: #"{"impressionId":"imp-1","modelInfo":"rec-v12","feedPosition":3,"businessPayload":{"refreshId":"r-9","itemId":"item-7"}}"#,
            common: EventCommon(userId: "u-1", timezoneOffsetMinutes: 480))
        #expect(Validation.event(line) == .feedback(expected))

        let variants = [
            (#""timestamp":1795161600000"#, Int64(1_795_161_600_000)),
            (#""timestamp":"2026-11-20T16:00:00.250+08:00""#, 1_795_161_600_250),
            (#""timestamp":"2026-11-20T08:00:00""#, 1_795_161_600_000),
        ]
        for (member, ms) in variants {
            guard case .feedback(let event) = Validation.event(Validation.feedback(member)) else {
                Issue.record("rejected \(member)")
                continue
            }
            #expect(event.timestampMs == ms)
        }
    }

    @Test("fills feedback defaults and knows every reaction", arguments: FeedbackEvent.Kind.allCases)
    func feedbackKinds(_ kind: FeedbackEvent.Kind) {
        var expected = FeedbackEvent(id: "f-1", timestampMs: 1_795_082_400_000, kind: kind, impressionId: "i",
                                     modelInfo: "m", feedPosition: 1, contextJSON: #"{"impressionId":"i","modelInfo":"m","feedPosition":1}"#)
        #expect(Validation.event(Validation.feedback("\"feedbackType\":\"\(kind.rawValue)\"")) == .feedback(expected))
        let context = #"{"impressionId":"i","modelInfo":"m","feedPosition":1.0,"businessPayload":{}}"#
        let withEmptyPayload = Validation.feedback(#""feedbackType":"\#(kind.rawValue)","context":\#(context)"#)
        expected.contextJSON = context
        #expect(Validation.event(withEmptyPayload) == .feedback(expected))
    }

    @Test("reads a full exposure event")
    func exposure() {
        let line = #"{"eventId":"a1","eventType":"exposure","clientTimestampMs":1763700001500,"userId":"u-1","#
            + #""pageId":"channel","pageInstanceId":"p-77","itemId":"item-7","impressionId":"imp-1","#
            + #""modelInfo":"rec-v12","feedPosition":3,"visibleRatio":0.81,"dwellMs":1620}"#
        let expected = ExposureEvent(
            eventId: "a1", clientTimestampMs: 1_763_700_001_500, pageId: "channel", pageInstanceId: "p-77",
            itemId: "item-7", impressionId: "imp-1", modelInfo: "rec-v12", feedPosition: 3, visibleRatio: 0.81,
            dwellMs: 1620, common: EventCommon(userId: "u-1"))
        #expect(Validation.event(line) == .exposure(expected))
        let minimal = ExposureEvent(eventId: "x-1", clientTimestampMs: 1_795_100_000_000, pageInstanceId: "p-1", itemId: "item-1")
        #expect(Validation.event(Validation.exposure()) == .exposure(minimal))
    }

    @Test("reads a full observability event")
    func observability() {
        let line = #"{"eventId":"9c","timestamp":1763700000000,"eventName":"view_loaded","sessionId":"s-1","#
            + #""userId":"u-1","properties":{"view_name":"home_view","load_duration_ms":420,"app_version":"2.3.0"}}"#
        let expected = ObservabilityEvent(
            eventId: "9c", timestampMs: 1_763_700_000_000, eventName: "view_loaded", sessionId: "s-1",
            propertiesJSON: #"{"view_name":"home_view","load_duration_ms":420,"app_version":"2.3.0"}"#,
            common: EventCommon(userId: "u-1"))
        #expect(Validation.event(line) == .observability(expected))
        guard case .observability(let minimal) = Validation.event(Validation.observability()) else {
            Issue.record("rejected")
            return
        }
        #expect(minimal.propertiesJSON == "{}")
        guard case .observability(let nullProperties) = Validation.event(Validation.observability(#""properties":null"#)) else {
            Issue.record("rejected")
            return
        }
        #expect(nullProperties.propertiesJSON == "{}")
    }

    @Test("decides the family in the order of events.md")
    func familyOrder() {
        #expect(Validation.event(Validation.observability(#""feedbackType":"like","eventType":"exposure","materialId":"m""#))?.family == .observability)
        #expect(Validation.event(Validation.feedback(#""eventType":"exposure","materialId":"m""#))?.family == .feedback)
        #expect(Validation.event(Validation.exposure(#""materialId":"m""#))?.family == .exposure)
        #expect(Validation.event(Validation.exposure(#""eventType":"exp\u006fsure""#))?.family == .exposure)
        // A key with a value decides, whatever the rest: this is a feedback event missing its id.
        #expect(Validation.rejection(Validation.reading(#""feedbackType":"like""#))?.field == "id")
        // A null key is absent and decides nothing.
        #expect(Validation.event(Validation.reading(#""eventName":null"#))?.family == .reading)
    }

    @Test("ignores unknown fields, lets the last repeated key win, tolerates CRLF")
    func tolerance() {
        let line = Validation.reading(#""extra":{"deep":[1,2,{"x":null}],"s":"\ud83d\ude00"},"activeSecondsDelta":-5,"activeSecondsDelta":15,"eventId":"r-2""#)
        guard case .reading(let event) = Validation.event(line + "\r\n") else {
            Issue.record("rejected: \(String(describing: Validation.rejection(line)))")
            return
        }
        #expect(event.activeSecondsDelta == 15)
        #expect(event.eventId == "r-2")
        #expect(event.common.extraJSON == #"{"extra":{"deep":[1,2,{"x":null}],"s":"\ud83d\ude00"}}"#)
        #expect(Validation.rejection(Validation.reading(#""activeSecondsDelta":15,"activeSecondsDelta":-5"#))?.code == .invalidActiveSeconds)
    }

    @Test("keeps the members a family does not define, verbatim, and nothing else")
    func otherMembers() {
        let known = Validation.event(Validation.reading())
        guard case .reading(let plain) = known else {
            Issue.record("rejected")
            return
        }
        #expect(plain.common.extraJSON == nil)
        let line = #"{"id":"f","timestamp":1,"feedbackType":"like","debugTag" : "x","context":{"impressionId":"i","modelInfo":"m","feedPosition":0,"businessPayload":{"refreshId":"r"}},"n":[1]}"#
        guard case .feedback(let feedback) = Validation.event(line) else {
            Issue.record("rejected")
            return
        }
        #expect(feedback.common.extraJSON == #"{"debugTag" : "x","n":[1]}"#)
        #expect(feedback.contextJSON == #"{"impressionId":"i","modelInfo":"m","feedPosition":0,"businessPayload":{"refreshId":"r"}}"#)
    }

    @Test("accepts the byte order mark that starts a file")
    func byteOrderMark() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(Validation.reading().utf8)
        let result = bytes.withUnsafeBytes { EventValidator.validate($0) }
        #expect((try? result.get())?.idempotencyKey == "r-1")
    }

    @Test("decodes escapes in identifiers")
    func escapedStrings() {
        let line = #"{"eventId":"e\u002d1\n","materialId":"m\"1","eventType":"heart\u0062eat","clientTimestampMs":1,"title":"\u7ebf\u6027"}"#
        guard case .reading(let event) = Validation.event(line) else {
            Issue.record("rejected: \(String(describing: Validation.rejection(line)))")
            return
        }
        #expect(event.eventId == "e-1\n")
        #expect(event.materialId == "m\"1")
        #expect(event.kind == .heartbeat)
        #expect(event.title == "线性")
    }

    @Test("validates bytes and strings alike")
    func bytesAndStrings() {
        for line in [Validation.reading(), Validation.feedback(), " garbage", Validation.reading(#""activeSecondsDelta":-5"#)] {
            let fromBytes = Array(line.utf8).withUnsafeBytes { EventValidator.validate($0) }
            #expect(fromBytes == EventValidator.validate(line))
        }
    }
}
