import TallyEvents

/// Test helpers around `EventValidator`.
enum Validation {
    /// The event `line` validates to, or `nil` when it is rejected.
    static func event(_ line: String) -> Event? {
        try? EventValidator.validate(line).get()
    }

    /// The rejection of `line`, or `nil` when it validates.
    static func rejection(_ line: String) -> EventRejection? {
        guard case .failure(let rejection) = EventValidator.validate(line) else { return nil }
        return rejection
    }

    /// A valid reading event with `extra` members appended (they win over earlier ones).
    static func reading(_ extra: String = "") -> String {
        #"{"eventId":"r-1","materialId":"m-01","eventType":"heartbeat","clientTimestampMs":1795100000000"#
            + (extra.isEmpty ? "" : "," + extra) + "}"
    }

    /// A valid feedback event with `extra` members appended.
    static func feedback(_ extra: String = "") -> String {
        #"{"id":"f-1","timestamp":"2026-11-19T10:00:00Z","feedbackType":"dislike","context":{"impressionId":"i","modelInfo":"m","feedPosition":1}"#
            + (extra.isEmpty ? "" : "," + extra) + "}"
    }

    /// A valid exposure event with `extra` members appended.
    static func exposure(_ extra: String = "") -> String {
        #"{"eventId":"x-1","eventType":"exposure","clientTimestampMs":1795100000000,"pageInstanceId":"p-1","itemId":"item-1""#
            + (extra.isEmpty ? "" : "," + extra) + "}"
    }

    /// A valid observability event with `extra` members appended.
    static func observability(_ extra: String = "") -> String {
        #"{"eventId":"o-1","timestamp":1795100000000,"eventName":"view_loaded","sessionId":"s-1""#
            + (extra.isEmpty ? "" : "," + extra) + "}"
    }
}
