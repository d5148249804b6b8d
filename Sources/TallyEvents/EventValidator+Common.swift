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
