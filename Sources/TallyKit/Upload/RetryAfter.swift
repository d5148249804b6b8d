import TallyEvents

/// Reading an HTTP `Retry-After` header (RFC 9110 §10.2.3).
public enum RetryAfter {
    /// The wait the header asks for, in milliseconds from `nowMs`: delay-seconds, or an
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`); nil when it is neither. Never negative.
    public static func delayMs(_ header: String, nowMs: Int64) -> Int64? {
        let text = header.trimmingBlanks
        if let seconds = Int64(text), seconds >= 0 {
            return seconds.multipliedReportingOverflow(by: 1000).overflow ? Int64.max : seconds * 1000
        }
        return instantMs(ofHTTPDate: text).map { max(0, $0 - nowMs) }
    }

    /// The instant of an IMF-fixdate, in milliseconds since the epoch.
    static func instantMs(ofHTTPDate text: String) -> Int64? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), let monthIndex = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]),
              let date = LocalDate(year: year, month: monthIndex + 1, day: day) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else {
            return nil
        }
        return (Int64(date.dayNumber) * 86_400 + Int64(clock[0] * 3600 + clock[1] * 60 + clock[2])) * 1000
    }
}

private extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
