import Testing
import TallyEvents

@Suite("EventValidator rejections")
struct EventValidatorRejectionTests {
    /// The lines of the acceptance file `mixed-bad.ndjson`, with the rejection each must get.
    @Test("rejects the bad lines of mixed-bad.ndjson", arguments: [
        (#"{"eventId": "bad-1", "materialId": "m-01", "eventType": "heartbeat""#, RejectionCode.invalidJSON, String?.none, String?.none),
        (#"{"eventId":"bad-2","materialId":"m-01","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":-5,"userId":"u-sh"}"#,
         .invalidActiveSeconds, "activeSecondsDelta", "bad-2"),
        (#"{"eventId":"bad-3","materialId":"m-01","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":4000,"userId":"u-sh"}"#,
         .invalidActiveSeconds, "activeSecondsDelta", "bad-3"),
        (#"{"eventId":"bad-4","materialId":"m-01","eventType":"teleported","clientTimestampMs":1795100000000,"userId":"u-sh"}"#,
         .invalidEventType, "eventType", "bad-4"),
        (#"{"materialId":"m-01","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15,"userId":"u-sh"}"#,
         .missingField, "eventId", nil),
        (#"{"eventId":"bad-6","materialId":"m-01","eventType":"heartbeat","clientTimestampMs":"yesterday","activeSecondsDelta":15,"userId":"u-sh"}"#,
         .invalidTimestamp, "clientTimestampMs", "bad-6"),
        (#"{"eventId":"bad-7","materialId":"m-01","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15,"clientTimezoneOffsetMinutes":9000,"userId":"u-sh"}"#,
         .invalidField, "clientTimezoneOffsetMinutes", "bad-7"),
        ("[1,2,3]", .invalidEventType, nil, nil),
        ("null", .invalidEventType, nil, nil),
        (#"{"hello":"world"}"#, .invalidEventType, nil, nil),
        (#"{"eventId":"bad-11","materialId":"m-01","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15,"position":{"progress":1.7},"userId":"u-sh"}"#,
         .invalidField, "position.progress", "bad-11"),
        (" garbage", .invalidJSON, nil, nil),
        (#"{"id":"bad-13","timestamp":"not a time","feedbackType":"dislike","context":{"impressionId":"i","modelInfo":"m","feedPosition":1}}"#,
         .invalidTimestamp, "timestamp", "bad-13"),
        (#"{"id":"bad-14","timestamp":"2026-11-19T10:00:00Z","feedbackType":"meh","context":{"impressionId":"i","modelInfo":"m","feedPosition":1}}"#,
         .invalidField, "feedbackType", "bad-14"),
        (#"{"id":"bad-15","timestamp":"2026-11-19T10:00:00Z","feedbackType":"dislike","context":{"impressionId":"i","modelInfo":"m","feedPosition":-1}}"#,
         .invalidField, "context.feedPosition", "bad-15"),
        (#"{"eventId":"bad-16","eventType":"exposure","clientTimestampMs":1795100000000,"itemId":"item-1"}"#,
         .missingField, "pageInstanceId", "bad-16"),
        (#"{"eventId":"bad-17","timestamp":1795100000000,"eventName":"view_loaded","properties":{}}"#,
         .missingField, "sessionId", "bad-17"),
    ])
    func mixedBad(_ line: String, _ code: RejectionCode, _ field: String?, _ eventKey: String?) {
        let rejection = Validation.rejection(line)
        #expect(rejection?.code == code)
        #expect(rejection?.field == field)
        #expect(rejection?.eventKey == eventKey)
    }

    @Test("accepts the good line of mixed-bad.ndjson")
    func mixedGood() {
        let line = #"{"clientSessionId":"u-ny-s10","materialId":"m-07","readingTargetType":"temporary_file","platform":"ios","appVersion":"2.2.0","clientTimezoneOffsetMinutes":0,"userId":"u-utc","eventId":"late-good-1","eventType":"heartbeat","clientTimestampMs":1795168800000,"sequence":10,"activeSecondsDelta":15,"position":{"page":15,"pageCount":27}}"#
        guard case .reading(let event) = Validation.event(line) else {
            Issue.record("not a reading event: \(String(describing: Validation.rejection(line)))")
            return
        }
        #expect(event.eventId == "late-good-1")
        #expect(event.targetType == .temporaryFile)
        #expect(event.progress == 15.0 / 27.0)
    }

    @Test("writes one sentence naming the field")
    func messages() {
        #expect(Validation.rejection(Validation.reading(#""activeSecondsDelta":-5"#))?.message
            == "activeSecondsDelta must be an integer in 0...3600, got -5")
        #expect(Validation.rejection(Validation.reading(#""clientTimezoneOffsetMinutes":9000"#))?.message
            == "clientTimezoneOffsetMinutes must be an integer in -720...840, got 9000")
        #expect(Validation.rejection(Validation.reading(#""position":{"progress":1.7}"#))?.message
            == "position.progress must be a number in 0...1, got 1.7")
        #expect(Validation.rejection(Validation.reading(#""clientTimestampMs":"yesterday""#))?.message
            == "clientTimestampMs must be an integer of milliseconds since the Unix epoch (years 0000...9999), got \"yesterday\"")
        #expect(Validation.rejection(Validation.reading(#""eventId":null"#))?.message == "eventId is required but is null")
        #expect(Validation.rejection(#"{"materialId":"m","eventType":"heartbeat","clientTimestampMs":1}"#)?.message == "eventId is required")
        #expect(Validation.rejection(Validation.feedback(#""feedbackType":"meh""#))?.message
            == "feedbackType must be one of like, dislike, neutral, got \"meh\"")
        #expect(Validation.rejection(Validation.feedback(#""context":{"impressionId":"i","modelInfo":"m","feedPosition":-1}"#))?.message
            == "context.feedPosition must be an integer >= 0, got -1")
        #expect(Validation.rejection(Validation.reading(#""sequence":"\#(String(repeating: "长", count: 30))""#))?.message
            == "sequence must be an integer, got \"\(String(repeating: "长", count: 13))…")
        #expect(Validation.rejection(Validation.reading(#""title":[\#(String(repeating: "1,", count: 40))1]"#))?.message
            == "title must be a string, got [\(String(repeating: "1,", count: 19))1…")
        #expect(Validation.rejection("[1,2,3]")?.message == "An event must be a JSON object, got an array")
        #expect(Validation.rejection(" garbage")?.message == "The event is not valid JSON: unexpected character at byte 1")
        #expect(Validation.rejection(#"{"eventId":"bad-4","materialId":"m","eventType":"teleported"}"#)?.message
            == "eventType of an event with materialId must be one of material_opened, material_closed, position_changed, heartbeat, marked_as_read, got \"teleported\"")
        for line in ["[1,2,3]", " garbage", #"{"hello":"world"}"#, Validation.reading(#""sequence":"x""#)] {
            let message = Validation.rejection(line)?.message ?? ""
            #expect(!message.isEmpty && !message.hasSuffix(".") && !message.contains("\n"))
        }
    }

    @Test("treats absent and null required fields as missing", arguments: ["eventId", "clientTimestampMs"])
    func readingRequired(_ key: String) {
        let absent = Validation.reading().replacing("\"\(key)\":", with: "\"_\(key)\":")
        #expect(Validation.rejection(absent)?.code == .missingField)
        #expect(Validation.rejection(absent)?.field == key)
        let null = Validation.reading("\"\(key)\":null")
        #expect(Validation.rejection(null)?.code == .missingField)
        #expect(Validation.rejection(null)?.field == key)
    }

    @Test("tells a reading event by its materialId; null is absent")
    func materialIdPresence() {
        let absent = Validation.reading().replacing("\"materialId\":", with: "\"_materialId\":")
        #expect(Validation.rejection(absent)?.code == .invalidEventType)
        #expect(Validation.rejection(Validation.reading(#""materialId":null"#))?.code == .invalidEventType)
    }

    @Test("rejects wrong types and ranges as INVALID_FIELD", arguments: [
        (Validation.reading(#""eventId":"""#), "eventId"),
        (Validation.reading(#""eventId":42"#), "eventId"),
        (Validation.reading(#""materialId":["m"]"#), "materialId"),
        (Validation.reading(#""userId":7"#), "userId"),
        (Validation.reading(#""platform":true"#), "platform"),
        (Validation.reading(#""appVersion":2.3"#), "appVersion"),
        (Validation.reading(#""clientTimezoneOffsetMinutes":841"#), "clientTimezoneOffsetMinutes"),
        (Validation.reading(#""clientTimezoneOffsetMinutes":-721"#), "clientTimezoneOffsetMinutes"),
        (Validation.reading(#""clientTimezoneOffsetMinutes":"+08:00""#), "clientTimezoneOffsetMinutes"),
        (Validation.reading(#""clientTimezoneOffsetMinutes":480.5"#), "clientTimezoneOffsetMinutes"),
        (Validation.reading(#""position":[3,10]"#), "position"),
        (Validation.reading(#""position":"p3""#), "position"),
        (Validation.reading(#""position":{"progress":"0.3"}"#), "position.progress"),
        (Validation.reading(#""position":{"progress":-0.1}"#), "position.progress"),
        (Validation.reading(#""readingTargetType":"book""#), "readingTargetType"),
        (Validation.reading(#""sequence":1.5"#), "sequence"),
        (Validation.reading(#""sequence":"7""#), "sequence"),
        (Validation.reading(#""sequence":18446744073709551615"#), "sequence"),
        (Validation.reading(#""title":{}"#), "title"),
        (Validation.reading(#""knowledgeBaseId":1"#), "knowledgeBaseId"),
        (Validation.reading(#""clientSessionId":false"#), "clientSessionId"),
        (Validation.feedback(#""id":"""#), "id"),
        (Validation.feedback(#""feedbackType":1"#), "feedbackType"),
        (Validation.feedback(#""feedbackType":"Like""#), "feedbackType"),
        (Validation.feedback(#""reason":0"#), "reason"),
        (Validation.feedback(#""context":"i""#), "context"),
        (Validation.feedback(#""context":{"impressionId":"","modelInfo":"m","feedPosition":1}"#), "context.impressionId"),
        (Validation.feedback(#""context":{"impressionId":"i","modelInfo":5,"feedPosition":1}"#), "context.modelInfo"),
        (Validation.feedback(#""context":{"impressionId":"i","modelInfo":"m","feedPosition":1.5}"#), "context.feedPosition"),
        (Validation.feedback(#""context":{"impressionId":"i","modelInfo":"m","feedPosition":"1"}"#), "context.feedPosition"),
        (Validation.feedback(#""context":{"impressionId":"i","modelInfo":"m","feedPosition":1,"businessPayload":"x"}"#), "context.businessPayload"),
        (Validation.feedback(#""context":{"impressionId":"i","modelInfo":"m","feedPosition":1,"businessPayload":{"itemId":7}}"#), "context.businessPayload.itemId"),
        (Validation.exposure(#""pageInstanceId":"""#), "pageInstanceId"),
        (Validation.exposure(#""itemId":1"#), "itemId"),
        (Validation.exposure(#""pageId":1"#), "pageId"),
        (Validation.exposure(#""impressionId":1"#), "impressionId"),
        (Validation.exposure(#""modelInfo":1"#), "modelInfo"),
        (Validation.exposure(#""feedPosition":-1"#), "feedPosition"),
        (Validation.exposure(#""visibleRatio":1.01"#), "visibleRatio"),
        (Validation.exposure(#""visibleRatio":"0.8""#), "visibleRatio"),
        (Validation.exposure(#""dwellMs":-1"#), "dwellMs"),
        (Validation.exposure(#""dwellMs":1.5"#), "dwellMs"),
        (Validation.observability(#""eventName":5"#), "eventName"),
        (Validation.observability(#""eventName":"""#), "eventName"),
        (Validation.observability(#""sessionId":5"#), "sessionId"),
        (Validation.observability(#""properties":[1]"#), "properties"),
        (Validation.observability(#""properties":"{}""#), "properties"),
    ])
    func invalidField(_ line: String, _ field: String) {
        let rejection = Validation.rejection(line)
        #expect(rejection?.code == .invalidField)
        #expect(rejection?.field == field)
    }

    @Test("rejects bad timestamps as INVALID_TIMESTAMP", arguments: [
        (Validation.reading(#""clientTimestampMs":"1795100000000""#), "clientTimestampMs"),
        (Validation.reading(#""clientTimestampMs":"2026-11-19T10:00:00Z""#), "clientTimestampMs"),
        (Validation.reading(#""clientTimestampMs":1795100000000.5"#), "clientTimestampMs"),
        (Validation.reading(#""clientTimestampMs":1e300"#), "clientTimestampMs"),
        (Validation.reading(#""clientTimestampMs":true"#), "clientTimestampMs"),
        (Validation.reading(#""clientTimestampMs":{}"#), "clientTimestampMs"),
        (Validation.reading(#""clientTimestampMs":253402300800000"#), "clientTimestampMs"),
        (Validation.feedback(#""timestamp":"2026-02-30T10:00:00Z""#), "timestamp"),
        (Validation.feedback(#""timestamp":"1795100000000""#), "timestamp"),
        (Validation.feedback(#""timestamp":1.5"#), "timestamp"),
        (Validation.feedback(#""timestamp":[]"#), "timestamp"),
        (Validation.exposure(#""clientTimestampMs":"now""#), "clientTimestampMs"),
        (Validation.observability(#""timestamp":"2026-11-19T10:00:00Z""#), "timestamp"),
    ])
    func invalidTimestamp(_ line: String, _ field: String) {
        let rejection = Validation.rejection(line)
        #expect(rejection?.code == .invalidTimestamp)
        #expect(rejection?.field == field)
    }

    @Test("rejects activeSecondsDelta that is not an integer in 0...3600", arguments: [
        "-1", "3601", "15.5", "\"15\"", "true", "[15]", "1e10",
    ])
    func invalidActiveSeconds(_ value: String) {
        let rejection = Validation.rejection(Validation.reading("\"activeSecondsDelta\":\(value)"))
        #expect(rejection?.code == .invalidActiveSeconds)
        #expect(rejection?.field == "activeSecondsDelta")
        #expect(rejection?.eventKey == "r-1")
    }

    @Test("reports missing nested and family fields by their dotted path", arguments: [
        (Validation.feedback(#""context":null"#), "context"),
        (#"{"id":"f","timestamp":1,"feedbackType":"like"}"#, "context"),
        (Validation.feedback(#""context":{"modelInfo":"m","feedPosition":1}"#), "context.impressionId"),
        (Validation.feedback(#""context":{"impressionId":"i","feedPosition":1}"#), "context.modelInfo"),
        (Validation.feedback(#""context":{"impressionId":"i","modelInfo":"m","feedPosition":null}"#), "context.feedPosition"),
        (Validation.feedback(#""timestamp":null"#), "timestamp"),
        (#"{"timestamp":1,"feedbackType":"like","context":{}}"#, "id"),
        (#"{"eventId":"x","eventType":"exposure","pageInstanceId":"p","itemId":"i"}"#, "clientTimestampMs"),
        (Validation.exposure(#""itemId":null"#), "itemId"),
        (#"{"eventId":"o","eventName":"e","sessionId":"s"}"#, "timestamp"),
        (#"{"timestamp":1,"eventName":"e","sessionId":"s"}"#, "eventId"),
    ])
    func missingField(_ line: String, _ field: String) {
        let rejection = Validation.rejection(line)
        #expect(rejection?.code == .missingField)
        #expect(rejection?.field == field)
    }

    @Test("classifies what is not an event", arguments: [
        ("[]", RejectionCode.invalidEventType), ("42", .invalidEventType), ("\"event\"", .invalidEventType),
        ("true", .invalidEventType), ("{}", .invalidEventType),
        (#"{"eventType":"heartbeat","eventId":"e"}"#, .invalidEventType),
        (#"{"materialId":"m","eventId":"e"}"#, .invalidEventType),
        (#"{"materialId":"m","eventType":5}"#, .invalidEventType),
        (#"{"materialId":"m","eventType":"Heartbeat"}"#, .invalidEventType),
        (#"{"eventType":"Exposure","eventId":"e"}"#, .invalidEventType),
        // A null family field is absent: these belong to no family.
        (Validation.feedback(#""feedbackType":null"#), .invalidEventType),
        (Validation.observability(#""eventName":null"#), .invalidEventType),
        ("", .invalidJSON), ("{\"a\":1}}", .invalidJSON), ("{\"eventId\":\"e\u{1}\"}", .invalidJSON),
    ])
    func notEvents(_ line: String, _ code: RejectionCode) {
        #expect(Validation.rejection(line)?.code == code)
    }

    @Test("rejects invalid UTF-8 as INVALID_JSON")
    func invalidUTF8() {
        let bytes = Array(#"{"eventId":"e"#.utf8) + [0xFF] + Array(#"","materialId":"m"}"#.utf8)
        let result = bytes.withUnsafeBytes { EventValidator.validate($0) }
        guard case .failure(let rejection) = result else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(rejection.code == .invalidJSON)
        #expect(rejection.eventKey == nil)
    }

    @Test("names the idempotency key whenever it can be read")
    func eventKey() {
        #expect(Validation.rejection(#"{"eventId":"k-1","hello":"world"}"#)?.eventKey == "k-1")
        #expect(Validation.rejection(#"{"id":"k-2","hello":"world"}"#)?.eventKey == "k-2")
        #expect(Validation.rejection(Validation.feedback(#""eventId":"not-this","timestamp":"x""#))?.eventKey == "f-1")
        #expect(Validation.rejection(Validation.reading(#""eventId":"","sequence":"x""#))?.eventKey == nil)
        #expect(Validation.rejection(Validation.reading(#""eventId":7"#))?.eventKey == nil)
        #expect(Validation.rejection(Validation.observability(#""eventId":"o-\u00e9","sessionId":null"#))?.eventKey == "o-é")
    }
}
