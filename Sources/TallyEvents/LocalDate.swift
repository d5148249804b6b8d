/// A calendar date with no zone, stored as days since 1970-01-01 (proleptic Gregorian).
///
/// An event's local date is `LocalDate(instantMs: ts, offsetMinutes: tz)`: the date of the
/// instant shifted by the event's own UTC offset (`metrics.md`, "Time").
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01; negative before it.
    public var dayNumber: Int

    /// The local dates an event may have, `0001-01-01...9999-12-31`: the dates whose
    /// `YYYY-MM-DD` text has four digits of year, so that the texts sort as the dates do.
    public static let supportedRange = LocalDate(dayNumber: -719_162)...LocalDate(dayNumber: 2_932_896)

    /// Creates a date from its day number.
    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
    }

    /// The local date of an instant seen from a zone `offsetMinutes` east of UTC.
    public init(instantMs: Int64, offsetMinutes: Int) {
        let local = instantMs + Int64(offsetMinutes) * 60_000
        dayNumber = Int(local.floorDivided(by: 86_400_000))
    }

    /// Creates a date from its year, month (1...12) and day (1...31); `nil` when the day does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        dayNumber = era * 146_097 + doe - 719_468
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Year, month (1...12) and day of month.
    public var components: (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Day of the week, 0 = Sunday … 6 = Saturday.
    public var weekday: Int {
        ((dayNumber + 4) % 7 + 7) % 7
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (y, m, d) = components
        return LocalDate.pad(y, 4) + "-" + LocalDate.pad(m, 2) + "-" + LocalDate.pad(d, 2)
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate {
        LocalDate(dayNumber: dayNumber + days)
    }

    /// Orders dates chronologically.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        lhs.dayNumber < rhs.dayNumber
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDivided(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
