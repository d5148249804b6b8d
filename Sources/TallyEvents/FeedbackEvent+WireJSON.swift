extension FeedbackEvent {
    /// The members of `events.md`'s feedback event. `timestamp` is ISO-8601 with milliseconds;
    /// `context` is `contextJSON` verbatim when set (it is what the user's app sent), else built
    /// from `impressionId`, `modelInfo`, `feedPosition` and `itemId`.
    func write(to writer: inout WireJSONWriter) {
        writer.string("id", id)
        writer.isoInstant("timestamp", timestampMs)
        writer.string("feedbackType", kind.rawValue)
        writer.string("reason", reason)
        if let contextJSON {
            writer.raw("context", contextJSON)
        } else {
            writer.key("context")
            var context = WireJSONWriter(appendingTo: &writer.bytes)
            context.string("impressionId", impressionId)
            context.string("modelInfo", modelInfo)
            context.integer("feedPosition", Int64(feedPosition))
            if let itemId {
                context.key("businessPayload")
                var payload = WireJSONWriter(appendingTo: &context.bytes)
                payload.string("itemId", itemId)
                payload.close(extraJSON: nil, into: &context.bytes)
            }
            context.close(extraJSON: nil, into: &writer.bytes)
        }
        writer.common(common)
    }
}
