extension ExposureEvent {
    /// The members of `events.md`'s exposure event, in its example's order.
    func write(to writer: inout WireJSONWriter) {
        writer.string("eventId", eventId)
        writer.string("eventType", "exposure")
        writer.integer("clientTimestampMs", clientTimestampMs)
        writer.common(common)
        writer.string("pageId", pageId)
        writer.string("pageInstanceId", pageInstanceId)
        writer.string("itemId", itemId)
        writer.string("impressionId", impressionId)
        writer.string("modelInfo", modelInfo)
        writer.integer("feedPosition", feedPosition.map(Int64.init))
        writer.number("visibleRatio", visibleRatio)
        writer.integer("dwellMs", dwellMs)
    }
}
