extension EventValidator {
    /// An exposure event (`events.md`, "Exposure events").
    static func exposure(_ fields: EventFieldReader) throws(EventRejection) -> Event {
        .exposure(ExposureEvent(
            eventId: try fields.requiredString("eventId"),
            clientTimestampMs: try fields.requiredTimestamp("clientTimestampMs", iso: false),
            pageId: try fields.optionalString("pageId"),
            pageInstanceId: try fields.requiredString("pageInstanceId"),
            itemId: try fields.requiredString("itemId"),
            impressionId: try fields.optionalString("impressionId"),
            modelInfo: try fields.optionalString("modelInfo"),
            feedPosition: try fields.optionalInteger("feedPosition", in: 0...Int64(Int.max)).map { Int($0) },
            visibleRatio: try fields.optionalFraction("visibleRatio"),
            dwellMs: try fields.optionalInteger("dwellMs", in: 0...Int64.max),
            common: try common(fields, known: exposureKeys)))
    }

    /// The keys of an exposure event.
    static let exposureKeys = JSONKeySet(commonKeys + [
        "eventId", "eventType", "clientTimestampMs", "pageId", "pageInstanceId", "itemId", "impressionId", "modelInfo",
        "feedPosition", "visibleRatio", "dwellMs",
    ])
}
