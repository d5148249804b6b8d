/// Why an input line was not stored (`events.md`, "Rejections").
public enum RejectionCode: String, Sendable, CaseIterable, Codable {
    /// The line is not well-formed UTF-8 JSON.
    case invalidJSON = "INVALID_JSON"
    /// The object belongs to no family, or names an unknown reading `eventType`.
    case invalidEventType = "INVALID_EVENT_TYPE"
    /// A required field is absent or null.
    case missingField = "MISSING_FIELD"
    /// A field has the wrong type or is out of range.
    case invalidField = "INVALID_FIELD"
    /// `activeSecondsDelta` is not an integer in `0...3600`.
    case invalidActiveSeconds = "INVALID_ACTIVE_SECONDS"
    /// A timestamp is not an integer of milliseconds or an ISO-8601 instant.
    case invalidTimestamp = "INVALID_TIMESTAMP"
}
