/// How a terminal shows numbers to people: durations, percentages, milliseconds, counts.
enum Readable {
    /// What a table shows for a missing value.
    static let missing = "-"

    /// A duration in its two largest units: `45s`, `12m 5s`, `1h 23m`, `2d 3h`; a zero second
    /// unit is left out (`12m`, `1h`), and the rest is cut, not rounded.
    static func duration(seconds: Int) -> String {
        if seconds < 0 {
            return "-" + duration(seconds: -seconds)
        }
        let units: [(name: String, seconds: Int)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        guard let index = units.firstIndex(where: { seconds >= $0.seconds }) else { return "0s" }
        let (major, majorSeconds) = units[index]
        var text = "\(seconds / majorSeconds)\(major)"
        if index + 1 < units.count {
            let (minor, minorSeconds) = units[index + 1]
            let rest = seconds % majorSeconds / minorSeconds
            if rest > 0 {
                text += " \(rest)\(minor)"
            }
        }
        return text
    }

    /// A ratio in `0...1` as a percentage with one decimal: `0.0833…` → `8.3%`.
    static func percent(_ ratio: Double) -> String {
        guard ratio.isFinite else { return missing }
        return oneDecimal(ratio * 100) + "%"
    }

    /// A difference of two ratios in percentage points, signed, with one decimal: `+6.7 pp`,
    /// `-1.6 pp`, `±0.0 pp`.
    static func points(_ difference: Double) -> String {
        guard difference.isFinite else { return missing }
        let text = oneDecimal(abs(difference) * 100)
        if text == "0.0" { return "±0.0 pp" }
        return (difference < 0 ? "-" : "+") + text + " pp"
    }

    /// A duration in milliseconds: `407 ms`, `407.5 ms`.
    static func milliseconds(_ value: Double) -> String {
        guard value.isFinite else { return missing }
        let whole = value == value.rounded() && abs(value) < 1e15
        return (whole ? String(Int64(value)) : oneDecimal(value)) + " ms"
    }

    /// A count and its unit, plural unless the count is 1: `1 day`, `365 days`.
    static func count(_ value: Int, _ unit: String) -> String {
        "\(value) \(unit)" + (value == 1 ? "" : "s")
    }

    /// The change from `previous` to `current` as a signed whole percentage: `+12%`, `-40%`,
    /// `±0%`; `n/a` when `previous` is 0 and `current` is not.
    static func change(from previous: Int, to current: Int) -> String {
        if previous == 0 {
            return current == 0 ? "±0%" : "n/a"
        }
        let percent = Int((Double(current - previous) / Double(previous) * 100).rounded())
        switch percent {
        case 0: return "±0%"
        case 1...: return "+\(percent)%"
        default: return "\(percent)%"
        }
    }

    /// A number rounded to one decimal, `8.3`; huge values keep their shortest form.
    private static func oneDecimal(_ value: Double) -> String {
        guard abs(value) < 1e15 else { return value.description }
        let tenths = Int64((abs(value) * 10).rounded())
        let sign = value < 0 && tenths > 0 ? "-" : ""
        return "\(sign)\(tenths / 10).\(tenths % 10)"
    }
}
