/// Writes one event object as compact JSON straight into a byte buffer: the collection stack's
/// encoder, fast enough for the caller's thread (no `JSONEncoder`, no intermediate strings).
///
/// Members are written in call order; `extraJSON` (an object's text) is spliced in last.
struct WireJSONWriter {
    /// The bytes written so far; the caller's buffer, appended to.
    var bytes: [UInt8]
    /// Whether the next member is the object's first (no comma before it).
    private var atFirstMember = true

    /// A writer that takes `bytes` over (leaving it empty, so appending never copies) and opens
    /// the object.
    init(appendingTo bytes: inout [UInt8]) {
        self.bytes = []
        swap(&self.bytes, &bytes)
        self.bytes.append(UInt8(ascii: "{"))
    }

    /// Splices the members of `extraJSON` (the text of one object, verbatim), closes the object and
    /// hands the buffer back to `bytes`.
    mutating func close(extraJSON: String?, into bytes: inout [UInt8]) {
        if let extraJSON {
            var text = extraJSON
            text.withUTF8 { spliceMembers(of: $0) }
        }
        self.bytes.append(UInt8(ascii: "}"))
        swap(&self.bytes, &bytes)
    }

    /// `"key":` after a comma when needed.
    @inline(__always)
    mutating func key(_ key: StaticString) {
        if atFirstMember {
            atFirstMember = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A string member.
    mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        quoted(value)
    }

    /// A string member, omitted when `value` is nil.
    mutating func string(_ key: StaticString, _ value: String?) {
        if let value { string(key, value) }
    }

    /// An integer member.
    mutating func integer(_ key: StaticString, _ value: Int64) {
        self.key(key)
        integer(value)
    }

    /// An integer member, omitted when `value` is nil.
    mutating func integer(_ key: StaticString, _ value: Int64?) {
        if let value { integer(key, value) }
    }

    /// A number member, omitted when `value` is nil.
    mutating func number(_ key: StaticString, _ value: Double?) {
        guard let value else { return }
        self.key(key)
        bytes.append(contentsOf: JSONText.number(value).utf8)
    }

    /// A member whose value is JSON text written verbatim.
    mutating func raw(_ key: StaticString, _ json: String) {
        self.key(key)
        bytes.append(contentsOf: json.utf8)
    }

    /// A timestamp member as an ISO-8601 UTC instant with milliseconds (`2026-11-20T08:00:00.123Z`);
    /// as integer milliseconds when the year is outside `0000...9999`.
    mutating func isoInstant(_ key: StaticString, _ ms: Int64) {
        let date = LocalDate(instantMs: ms, offsetMinutes: 0)
        let (year, month, day) = date.components
        guard (0...9999).contains(year) else { return integer(key, ms) }
        self.key(key)
        let msOfDay = Int(ms - Int64(date.dayNumber) * 86_400_000)
        bytes.append(UInt8(ascii: "\""))
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(msOfDay / 3_600_000, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(msOfDay / 60_000 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(msOfDay / 1000 % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(msOfDay % 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
        bytes.append(UInt8(ascii: "\""))
    }

    /// The fields every family shares; defaults (empty user, offset 0) are left out.
    mutating func common(_ common: EventCommon) {
        if !common.userId.isEmpty { string("userId", common.userId) }
        if common.timezoneOffsetMinutes != 0 {
            integer("clientTimezoneOffsetMinutes", Int64(common.timezoneOffsetMinutes))
        }
        string("platform", common.platform)
        string("appVersion", common.appVersion)
    }

    // MARK: Values

    /// `value` as a JSON string literal: `"`, `\` and control characters escaped, the rest as UTF-8.
    mutating func quoted(_ value: String) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape sequence of one byte that cannot stand in a JSON string.
    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }

    /// `value` in decimal.
    private mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var start = 20
            repeat {
                start -= 1
                scratch[start] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[start...]))
        }
    }

    /// `value` (non-negative) in decimal, zero-padded to `width` digits.
    private mutating func digits(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest / divisor % 10) + 0x30)
            rest %= divisor
            divisor /= 10
        }
    }

    /// The members of the object text `object` (between its braces, blanks trimmed), after a comma
    /// when needed; nothing when it is not an object's text or has no members.
    private mutating func spliceMembers(of object: UnsafeBufferPointer<UInt8>) {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        var start = 0, end = object.count
        while start < end, isBlank(object[start]) { start += 1 }
        while end > start, isBlank(object[end - 1]) { end -= 1 }
        guard end - start >= 2, object[start] == UInt8(ascii: "{"), object[end - 1] == UInt8(ascii: "}") else { return }
        start += 1
        end -= 1
        while start < end, isBlank(object[start]) { start += 1 }
        while end > start, isBlank(object[end - 1]) { end -= 1 }
        guard start < end else { return }
        if !atFirstMember { bytes.append(UInt8(ascii: ",")) }
        atFirstMember = false
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: object[start..<end]))
    }
}
