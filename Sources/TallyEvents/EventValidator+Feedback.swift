extension EventValidator {
    /// A feedback event (`events.md`, "Feedback events").
    static func feedback(_ fields: EventFieldReader) throws(EventRejection) -> Event {
        let id = try fields.requiredString("id")
        let timestampMs = try fields.requiredTimestamp("timestamp", iso: true)
        let kind = try fields.requiredCase("feedbackType", of: FeedbackEvent.Kind.self)
        let context = try fields.requiredObject("context")
        return .feedback(FeedbackEvent(
            id: id,
            timestampMs: timestampMs,
            kind: kind,
            reason: try fields.optionalString("reason"),
            impressionId: try context.requiredString("impressionId"),
            modelInfo: try context.requiredString("modelInfo"),
            feedPosition: Int(try context.requiredInteger("feedPosition", in: 0...Int64(Int.max))),
            itemId: try context.optionalObject("businessPayload")?.optionalString("itemId"),
            contextJSON: context.object.rawText,
            common: try common(fields, known: feedbackKeys)))
    }

    /// The keys of a feedback event (`context` is kept whole).
    static let feedbackKeys = JSONKeySet(commonKeys + ["id", "timestamp", "feedbackType", "reason", "context"])
}
