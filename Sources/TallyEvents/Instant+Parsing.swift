extension Instant {
    /// The instants Tally accepts, `0000-01-01T00:00:00.000Z...9999-12-31T23:59:59.999Z`:
    /// the years an ISO-8601 text of four digits can name.
    public static let supportedRange: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// Parses an ISO-8601 instant into milliseconds since the Unix epoch; `nil` when `text` is not one.
    ///
    /// Accepted: `YYYY-MM-DDTHH:MM:SS` (`T`, `t` or a space between date and time), an optional
    /// fraction of any length after `.` (milliseconds kept, further digits truncated), then `Z`/`z`,
    /// `±HH:MM`, `±HHMM`, or nothing for UTC. Days that do not exist (`2026-02-30`), hours above
    /// 23, minutes or seconds above 59 and instants outside `supportedRange` give `nil`.
    public static func parse(iso text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(isoUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// Parses the CLI's `--now` (and the API's `now=`): an ISO-8601 instant as `parse(iso:)`
    /// accepts, or an integer of milliseconds since the Unix epoch such as `1795176000000`;
    /// `nil` for anything else or outside `supportedRange`.
    public static func parse(nowArgument text: String) -> Int64? {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        if !digits.isEmpty, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
            guard let ms = Int64(text), supportedRange.contains(ms) else { return nil }
            return ms
        }
        return parse(iso: text)
    }

    /// `parse(iso:)` on UTF-8 bytes.
    static func parse(isoUTF8 bytes: UnsafeRawBufferPointer) -> Int64? {
        let count = bytes.count
        guard count >= 19 else { return nil }

        /// The value of the `width` ASCII digits at `offset`.
        func number(at offset: Int, width: Int) -> Int? {
            var value = 0
            for i in offset..<offset + width {
                let digit = bytes[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }

        guard let year = number(at: 0, width: 4), bytes[4] == UInt8(ascii: "-"),
              let month = number(at: 5, width: 2), bytes[7] == UInt8(ascii: "-"),
              let day = number(at: 8, width: 2),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
              let hour = number(at: 11, width: 2), bytes[13] == UInt8(ascii: ":"),
              let minute = number(at: 14, width: 2), bytes[16] == UInt8(ascii: ":"),
              let second = number(at: 17, width: 2),
              hour <= 23, minute <= 59, second <= 59,
              let date = LocalDate(year: year, month: month, day: day)
        else { return nil }

        var i = 19
        var millisecond = 0
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < count, bytes[i] &- UInt8(ascii: "0") < 10 {
                if i - start < 3 { millisecond = millisecond * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            let digits = i - start
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millisecond *= 10 }
        }

        var offsetMinutes = 0
        if i < count {
            let sign = bytes[i]
            if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") {
                i += 1
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                let colon = count - i == 6 && bytes[i + 3] == UInt8(ascii: ":")
                guard count - i == (colon ? 6 : 5),
                      let hours = number(at: i + 1, width: 2), hours <= 23,
                      let minutes = number(at: i + (colon ? 4 : 3), width: 2), minutes <= 59
                else { return nil }
                offsetMinutes = (hours * 60 + minutes) * (sign == UInt8(ascii: "-") ? -1 : 1)
                i = count
            }
            guard i == count else { return nil }
        }

        let secondOfDay = hour * 3600 + minute * 60 + second
        let ms = (Int64(date.dayNumber) * 86_400 + Int64(secondOfDay)) * 1000 + Int64(millisecond)
            - Int64(offsetMinutes) * 60_000
        return supportedRange.contains(ms) ? ms : nil
    }
}
