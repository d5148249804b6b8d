/// Checks one event's JSON against `events.md` and builds the typed `Event`, or says why not.
///
/// The input is one JSON value: an NDJSON line (its line end may stay) or one element of a
/// batch. Unknown fields are never an error; absent and `null` are the same for every field.
public enum EventValidator {
    /// The event in the UTF-8 JSON `bytes`, or the rejection of `events.md` ("Rejections").
    ///
    /// - `INVALID_JSON`: not one well-formed UTF-8 JSON value.
    /// - `INVALID_EVENT_TYPE`: not an object, or an object of no family.
    /// - `MISSING_FIELD`, `INVALID_FIELD`, `INVALID_TIMESTAMP`, `INVALID_ACTIVE_SECONDS`: the
    ///   family's fields; the first problem found is reported, with `eventKey` set when the
    ///   idempotency key could be read.
    public static func validate(_ bytes: UnsafeRawBufferPointer) -> Result<Event, EventRejection> {
        do {
            switch try JSONScanner.scan(bytes) {
            case .object(let object):
                return validate(object)
            case .other(let value):
                return .failure(EventRejection(code: .invalidEventType,
                                               message: "An event must be a JSON object, got \(value.kind.phrase)"))
            }
        } catch {
            return .failure(EventRejection(code: .invalidJSON, message: "The event is not valid JSON: \(error)"))
        }
    }

    /// `validate(_:)` on the UTF-8 of `text`.
    public static func validate(_ text: String) -> Result<Event, EventRejection> {
        var text = text
        return text.withUTF8 { validate(UnsafeRawBufferPointer($0)) }
    }

    /// The event of a scanned JSON object, or its rejection.
    public static func validate(_ object: JSONObjectView) -> Result<Event, EventRejection> {
        let fields = EventFieldReader(object)
        do throws(EventRejection) {
            let event = try event(fields)
            try checkLocalDate(of: event, fields)
            return .success(event)
        } catch {
            var rejection = error
            rejection.eventKey = idempotencyKey(fields)
            return .failure(rejection)
        }
    }

    /// The event's family decided in the order of `events.md`, then its fields. A key whose
    /// value is `null` counts as absent here too.
    private static func event(_ fields: EventFieldReader) throws(EventRejection) -> Event {
        if fields.value("eventName") != nil {
            return try observability(fields)
        }
        if fields.value("feedbackType") != nil {
            return try feedback(fields)
        }
        let eventType = fields.value("eventType")
        if let eventType, eventType.isString("exposure") {
            return try exposure(fields)
        }
        guard fields.value("materialId") != nil else {
            throw EventRejection(code: .invalidEventType, message: "The object is of no event family: it has no eventName, "
                + "no feedbackType, no eventType \"exposure\" and no materialId with a reading eventType")
        }
        guard let eventType, let kind = eventType.stringCase(of: ReadingEvent.Kind.self) else {
            let names = ReadingEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            let got = eventType.map { "got \($0.preview)" } ?? "it is absent"
            throw EventRejection(code: .invalidEventType, field: "eventType",
                                 message: "eventType of an event with materialId must be one of \(names), \(got)")
        }
        return try reading(fields, kind: kind)
    }

    /// The idempotency key if it is a non-empty string: `id` for feedback, `eventId` otherwise
    /// (either for an object of no family).
    private static func idempotencyKey(_ fields: EventFieldReader) -> String? {
        let isFeedback = fields.value("eventName") == nil && fields.value("feedbackType") != nil
        let key = isFeedback ? fields.value("id")?.string : fields.value("eventId")?.string ?? fields.value("id")?.string
        return key?.isEmpty == false ? key : nil
    }
}

// MARK: - The local date

extension EventValidator {
    /// Refuses (`INVALID_TIMESTAMP`, naming the timestamp) an event whose local date — its
    /// instant seen from its own `clientTimezoneOffsetMinutes` — is outside
    /// `LocalDate.supportedRange`: such a date has no `YYYY-MM-DD` text that sorts in order.
    static func checkLocalDate(of event: Event, _ fields: EventFieldReader) throws(EventRejection) {
        let offset = event.common.timezoneOffsetMinutes
        let date = LocalDate(instantMs: event.timestampMs, offsetMinutes: offset)
        guard !LocalDate.supportedRange.contains(date) else { return }
        let key: StaticString = switch event {
        case .reading, .exposure: "clientTimestampMs"
        case .feedback, .observability: "timestamp"
        }
        guard let value = fields.value(key) else { return }
        throw fields.invalid(key, value, expected: "an instant whose local date at clientTimezoneOffsetMinutes \(offset) is in "
                                 + "\(LocalDate.supportedRange.lowerBound)...\(LocalDate.supportedRange.upperBound) (it is \(date))",
                             code: .invalidTimestamp)
    }
}

// MARK: - Fields every family shares

extension EventValidator {
    /// The fields every family shares, and the members `known` (the family's own keys) leaves over.
    static func common(_ fields: EventFieldReader, known: JSONKeySet) throws(EventRejection) -> EventCommon {
        EventCommon(
            userId: try fields.optionalString("userId") ?? "",
            timezoneOffsetMinutes: Int(try fields.optionalInteger("clientTimezoneOffsetMinutes", in: -720...840) ?? 0),
            platform: try fields.optionalString("platform"),
            appVersion: try fields.optionalString("appVersion"),
            extraJSON: fields.object.otherMembersText(known: known))
    }

    /// The keys every family shares.
    static let commonKeys = ["userId", "clientTimezoneOffsetMinutes", "platform", "appVersion"]
}
