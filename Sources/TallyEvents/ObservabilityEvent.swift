/// A named app event with free-form properties (`clickhouse-observability-kit`).
public struct ObservabilityEvent: Sendable, Equatable {
    /// Idempotency key.
    public var eventId: String
    /// Milliseconds since the Unix epoch, client clock.
    public var timestampMs: Int64
    /// What happened (`view_loaded`, `api_request_failed`, …).
    public var eventName: String
    /// The app session.
    public var sessionId: String
    /// The `properties` object as sent (JSON text); `{}` when absent.
    public var propertiesJSON: String
    /// The fields every family shares.
    public var common: EventCommon

    /// Creates an observability event.
    public init(eventId: String, timestampMs: Int64, eventName: String, sessionId: String,
                propertiesJSON: String = "{}", common: EventCommon = EventCommon()) {
        self.eventId = eventId
        self.timestampMs = timestampMs
        self.eventName = eventName
        self.sessionId = sessionId
        self.propertiesJSON = propertiesJSON
        self.common = common
    }
}
