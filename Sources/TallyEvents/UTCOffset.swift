/// Parses a zone given as an offset from UTC.
public enum UTCOffset {
    /// Minutes east of UTC of `±HH:MM`, `±HHMM`, `HH:MM`, `Z` or `UTC`; nil outside -12:00...+14:00.
    public static func minutes(_ text: String) -> Int? {
        if text == "Z" || text.uppercased() == "UTC" { return 0 }
        var body = Substring(text)
        var sign = 1
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        let digits = Array(body.utf8)
        let isDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        let clock: [UInt8]
        switch digits.count {
        case 5 where digits[2] == UInt8(ascii: ":"): clock = Array(digits[0..<2] + digits[3..<5])
        case 4: clock = digits
        default: return nil
        }
        guard clock.allSatisfy(isDigit) else { return nil }
        let value = clock.map { Int($0 - 0x30) }
        let hours = value[0] * 10 + value[1], minutes = value[2] * 10 + value[3]
        guard minutes < 60 else { return nil }
        let total = sign * (hours * 60 + minutes)
        return (-720...840).contains(total) ? total : nil
    }
}
