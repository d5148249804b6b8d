/// Fields every family may carry (`events.md`, "Common optional fields").
public struct EventCommon: Sendable, Equatable {
    /// Who produced the event; `""` when absent (a single-user data set).
    public var userId: String
    /// Local time = UTC + this offset; `-720...840`, 0 when absent.
    public var timezoneOffsetMinutes: Int
    /// The client platform (`ios`, `android`, …), if sent.
    public var platform: String?
    /// The client version, if sent.
    public var appVersion: String?
    /// The members the event's family does not define, as the text of one JSON object, kept
    /// verbatim so they stay queryable; nil when there are none.
    public var extraJSON: String?

    /// Creates the common fields.
    public init(userId: String = "", timezoneOffsetMinutes: Int = 0, platform: String? = nil, appVersion: String? = nil,
                extraJSON: String? = nil) {
        self.userId = userId
        self.timezoneOffsetMinutes = timezoneOffsetMinutes
        self.platform = platform
        self.appVersion = appVersion
        self.extraJSON = extraJSON
    }
}
