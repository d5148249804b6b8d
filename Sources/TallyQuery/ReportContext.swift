/// The question's frame, shared by every report: whose events, when "now" is, which zone.
public struct ReportContext: Sendable, Equatable {
    /// One user, or nil for all users together.
    public var user: String?
    /// The current instant, milliseconds since the Unix epoch.
    public var nowMs: Int64
    /// The report's zone as minutes east of UTC (`--tz`); nil to use the user's latest offset, else UTC.
    public var timezoneOffsetMinutes: Int?

    /// Creates a context.
    public init(user: String? = nil, nowMs: Int64, timezoneOffsetMinutes: Int? = nil) {
        self.user = user
        self.nowMs = nowMs
        self.timezoneOffsetMinutes = timezoneOffsetMinutes
    }
}
