extension EventValidator {
    /// A reading event of kind `kind` (`events.md`, "Reading events").
    static func reading(_ fields: EventFieldReader, kind: ReadingEvent.Kind) throws(EventRejection) -> Event {
        let eventId = try fields.requiredString("eventId")
        let materialId = try fields.requiredString("materialId")
        let timestampMs = try fields.requiredTimestamp("clientTimestampMs", iso: false)
        let activeSeconds = try fields.optionalInteger("activeSecondsDelta", in: 0...3600, code: .invalidActiveSeconds) ?? 0
        let position = try fields.optionalObject("position")
        let progress = try position.flatMap(progress(_:))
        return .reading(ReadingEvent(
            eventId: eventId,
            clientSessionId: try fields.optionalString("clientSessionId"),
            materialId: materialId,
            kind: kind,
            clientTimestampMs: timestampMs,
            sequence: try fields.optionalInteger("sequence"),
            activeSecondsDelta: Int(activeSeconds),
            positionJSON: position?.object.rawText,
            progress: progress,
            targetType: try fields.optionalCase("readingTargetType", of: ReadingEvent.TargetType.self) ?? .knowledgeSource,
            title: try fields.optionalString("title"),
            knowledgeBaseId: try fields.optionalString("knowledgeBaseId"),
            common: try common(fields, known: readingKeys)))
    }

    /// The keys of a reading event.
    static let readingKeys = JSONKeySet(commonKeys + [
        "eventId", "clientSessionId", "materialId", "eventType", "clientTimestampMs", "sequence", "activeSecondsDelta",
        "position", "readingTargetType", "title", "knowledgeBaseId",
    ])

    /// `position.progress` in `0...1`; without it `page / pageCount` (clamped to `0...1`) when both
    /// are finite numbers and `pageCount > 0`; else `nil`.
    private static func progress(_ position: EventFieldReader) throws(EventRejection) -> Double? {
        if let progress = try position.optionalFraction("progress") {
            return progress
        }
        guard let page = position.value("page")?.double, let pageCount = position.value("pageCount")?.double,
              page.isFinite, pageCount.isFinite, pageCount > 0 else { return nil }
        return min(max(page / pageCount, 0), 1)
    }
}
