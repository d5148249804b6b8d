extension EventValidator {
    /// An observability event (`events.md`, "Observability events").
    static func observability(_ fields: EventFieldReader) throws(EventRejection) -> Event {
        .observability(ObservabilityEvent(
            eventId: try fields.requiredString("eventId"),
            timestampMs: try fields.requiredTimestamp("timestamp", iso: false),
            eventName: try fields.requiredString("eventName"),
            sessionId: try fields.requiredString("sessionId"),
            propertiesJSON: try fields.optionalObject("properties")?.object.rawText ?? "{}",
            common: try common(fields, known: observabilityKeys)))
    }

    /// The keys of an observability event.
    static let observabilityKeys = JSONKeySet(commonKeys + [
        "eventId", "timestamp", "eventName", "sessionId", "properties",
    ])
}
