/// Formatting and parsing of instants as milliseconds since the Unix epoch.
public enum Instant {
    /// ISO-8601 UTC with milliseconds: `2026-11-20T08:00:00.123Z`.
    public static func iso(_ ms: Int64) -> String {
        let date = LocalDate(instantMs: ms, offsetMinutes: 0)
        let msOfDay = Int(ms - Int64(date.dayNumber) * 86_400_000)
        let h = msOfDay / 3_600_000, m = msOfDay / 60_000 % 60, s = msOfDay / 1000 % 60, f = msOfDay % 1000
        return "\(date)T\(LocalDate.pad(h, 2)):\(LocalDate.pad(m, 2)):\(LocalDate.pad(s, 2)).\(LocalDate.pad(f, 3))Z"
    }
}
