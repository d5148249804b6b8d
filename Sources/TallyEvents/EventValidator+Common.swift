extension EventValidator {
    /// The fields every family may carry (`events.md`, "Common optional fields").
    static func common(_ fields: EventFieldReader) throws(EventRejection) -> EventCommon {
        EventCommon(
            userId: try fields.optionalString("userId") ?? "",
            timezoneOffsetMinutes: Int(try fields.optionalInteger("clientTimezoneOffsetMinutes", in: -720...840) ?? 0),
            platform: try fields.optionalString("platform"),
            appVersion: try fields.optionalString("appVersion"))
    }
}
