extension ObservabilityEvent {
    /// The members of `events.md`'s observability event; `properties` is `propertiesJSON` verbatim.
    func write(to writer: inout WireJSONWriter) {
        writer.string("eventId", eventId)
        writer.integer("timestamp", timestampMs)
        writer.string("eventName", eventName)
        writer.string("sessionId", sessionId)
        writer.common(common)
        writer.raw("properties", propertiesJSON)
    }
}
