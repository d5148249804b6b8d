extension ReadingEvent {
    /// The members of `events.md`'s reading event, in its example's order. `position` is
    /// `positionJSON` verbatim, or `{"progress":…}` when only `progress` is set.
    func write(to writer: inout WireJSONWriter) {
        writer.string("eventId", eventId)
        writer.string("clientSessionId", clientSessionId)
        writer.string("materialId", materialId)
        writer.string("eventType", kind.rawValue)
        if let positionJSON {
            writer.raw("position", positionJSON)
        } else if let progress {
            writer.raw("position", "{\"progress\":" + JSONText.number(progress) + "}")
        }
        writer.integer("activeSecondsDelta", Int64(activeSecondsDelta))
        writer.integer("clientTimestampMs", clientTimestampMs)
        writer.integer("sequence", sequence)
        writer.string("readingTargetType", targetType.rawValue)
        writer.common(common)
        writer.string("title", title)
        writer.string("knowledgeBaseId", knowledgeBaseId)
    }
}
