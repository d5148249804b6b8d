/// The write paths of `report serve` (`api.md`), for ``HTTPTransport/reportServer(baseURL:family:token:)``.
public enum EventFamilyRoute: Sendable {
    /// `POST /learning/reading-events/batch`, `{"events":[…]}`.
    case reading
    /// `POST /v1/feedback/batch`, `[…]`.
    case feedback
    /// `POST /events`, NDJSON of any family.
    case events
}
