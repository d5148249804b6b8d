import Testing
import TallyEvents

/// An event's local date (its instant seen from its own offset) must be one `YYYY-MM-DD` can
/// write in order: 0001-01-01...9999-12-31. The instant alone may be in range while the local
/// date is not.
@Suite("Local dates outside 0001...9999")
struct LocalDateRangeTests {
    @Test("an instant whose local date leaves 0001...9999 is INVALID_TIMESTAMP, naming the timestamp", arguments: [
        // 9999-12-31T23:00:00Z at +14:00 is 10000-01-01 locally.
        (Validation.reading(#""clientTimestampMs":253402297200000,"clientTimezoneOffsetMinutes":840"#), "clientTimestampMs"),
        (Validation.exposure(#""clientTimestampMs":253402297200000,"clientTimezoneOffsetMinutes":840"#), "clientTimestampMs"),
        (Validation.feedback(#""timestamp":"9999-12-31T23:00:00Z","clientTimezoneOffsetMinutes":840"#), "timestamp"),
        (Validation.observability(#""timestamp":253402297200000,"clientTimezoneOffsetMinutes":840"#), "timestamp"),
        // 0000-01-01T05:00:00Z at -12:00 is -0001-12-31 locally; 0000-06-01 is year 0 in UTC too.
        (Validation.reading(#""clientTimestampMs":-62167201200000,"clientTimezoneOffsetMinutes":-720"#), "clientTimestampMs"),
        (Validation.feedback(#""timestamp":"0000-06-01T00:00:00Z""#), "timestamp"),
        (Validation.feedback(#""timestamp":"0001-01-01T05:00:00+00:00","clientTimezoneOffsetMinutes":-720"#), "timestamp"),
    ])
    func refused(_ line: String, _ field: String) {
        let rejection = Validation.rejection(line)
        #expect(rejection?.code == .invalidTimestamp)
        #expect(rejection?.field == field)
        #expect(rejection?.message.contains("0001-01-01...9999-12-31") == true)
    }

    @Test("the first and last local dates are accepted", arguments: [
        // 9999-12-31T09:59:59.999Z at +14:00 is 9999-12-31T23:59:59.999 locally.
        Validation.reading(#""clientTimestampMs":253402250399999,"clientTimezoneOffsetMinutes":840"#),
        // 0001-01-01T12:00:00Z at -12:00 is 0001-01-01T00:00 locally.
        Validation.reading(#""clientTimestampMs":-62135553600000,"clientTimezoneOffsetMinutes":-720"#),
        Validation.feedback(#""timestamp":"9999-12-31T23:59:59.999Z""#),
        Validation.feedback(#""timestamp":"0001-01-01T00:00:00Z""#),
    ])
    func accepted(_ line: String) throws {
        let event = try #require(Validation.event(line))
        let date = LocalDate(instantMs: event.timestampMs, offsetMinutes: event.common.timezoneOffsetMinutes)
        #expect(LocalDate.supportedRange.contains(date))
        #expect(date.description.count == 10)
    }
}
