/// A read position in the UTF-8 bytes of a JSON text, with the validating scanning steps.
///
/// Every `scan…` method starts at the first byte of its construct and leaves `position`
/// just past it; every failure is a `JSONSyntaxError` at the offending byte.
struct JSONCursor {
    /// `"`
    static let quote: UInt8 = 0x22
    /// `\`
    static let backslash: UInt8 = 0x5C

    /// The first byte; never dereferenced when `end == 0`.
    let base: UnsafeRawPointer
    /// The number of bytes.
    let end: Int
    /// The offset of the next byte to read.
    var position: Int

    /// A cursor at the first of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!
        end = bytes.count
        position = 0
    }

    /// The byte at `offset`, which must be below `end`.
    @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        base.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// An error at the current position.
    @inline(__always)
    func error(_ problem: JSONSyntaxError.Problem) -> JSONSyntaxError {
        JSONSyntaxError(problem, at: position)
    }

    /// The byte at the current position; `unexpectedEnd` when there is none.
    @inline(__always)
    func current() throws(JSONSyntaxError) -> UInt8 {
        guard position < end else { throw error(.unexpectedEnd) }
        return byte(at: position)
    }

    /// Skips spaces, tabs, CRs and LFs.
    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            let b = byte(at: position)
            guard b <= 0x20, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            position += 1
        }
    }

    /// Skips whitespace and returns the next byte; `unexpectedEnd` when there is none.
    @inline(__always)
    mutating func nextSignificant() throws(JSONSyntaxError) -> UInt8 {
        skipWhitespace()
        return try current()
    }

    // MARK: Scalars

    /// Scans a string, opening quote included; returns whether it holds backslash escapes.
    mutating func scanString() throws(JSONSyntaxError) -> Bool {
        var p = position + 1 // a local, so the hot loop keeps it in a register
        var escaped = false
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control or a non-ASCII byte.
            while p + 8 <= end {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt64.self))
                let special = JSONCursor.specialBytes(word)
                if special != 0 {
                    p += special.trailingZeroBitCount >> 3
                    break
                }
                p += 8
            }
            guard p < end else { throw JSONSyntaxError(.unexpectedEnd, at: p) }
            let b = byte(at: p)
            if b == JSONCursor.quote {
                position = p + 1
                return escaped
            } else if b < 0x80 && b >= 0x20 && b != JSONCursor.backslash {
                p += 1
            } else {
                position = p
                if b == JSONCursor.backslash {
                    escaped = true
                    try scanEscape()
                } else if b < 0x20 {
                    throw error(.controlCharacter)
                } else {
                    try scanMultiByteScalar(lead: b)
                }
                p = position
            }
        }
    }

    /// The high bit of each byte of `word` that is `"`, `\`, below 0x20 or above 0x7F; others may be set
    /// only above the lowest such byte, so the lowest set bit always marks the first special byte.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let controls = (word &- ones &* 0x20) & ~word
        let isQuote = (quotes &- ones) & ~quotes
        let isBackslash = (backslashes &- ones) & ~backslashes
        return (controls | isQuote | isBackslash | word) & highs
    }

    /// Scans one escape sequence starting at its backslash.
    mutating func scanEscape() throws(JSONSyntaxError) {
        guard position + 1 < end else { throw JSONSyntaxError(.unexpectedEnd, at: end) }
        switch byte(at: position + 1) {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: // " \ / b f n r t
            position += 2
        case 0x75: // u
            let unit = try hexUnit(at: position + 2)
            if unit & 0xFC00 == 0xD800 {
                // The low half must follow as `\uDC00`...`\uDFFF`.
                guard position + 6 < end else { throw JSONSyntaxError(.unexpectedEnd, at: end) }
                guard byte(at: position + 6) == JSONCursor.backslash else { throw error(.unpairedSurrogate) }
                guard position + 7 < end else { throw JSONSyntaxError(.unexpectedEnd, at: end) }
                guard byte(at: position + 7) == 0x75 else { throw error(.unpairedSurrogate) }
                guard try hexUnit(at: position + 8) & 0xFC00 == 0xDC00 else { throw error(.unpairedSurrogate) }
                position += 12
            } else if unit & 0xFC00 == 0xDC00 {
                throw error(.unpairedSurrogate)
            } else {
                position += 6
            }
        default:
            throw error(.invalidEscape)
        }
    }

    /// The UTF-16 code unit of the four hex digits at `offset`.
    func hexUnit(at offset: Int) throws(JSONSyntaxError) -> UInt16 {
        var unit: UInt16 = 0
        for i in offset..<offset + 4 {
            guard i < end else { throw JSONSyntaxError(.unexpectedEnd, at: end) }
            guard let digit = JSONCursor.hexValue(byte(at: i)) else { throw JSONSyntaxError(.invalidEscape, at: i) }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// The value of a hex digit, either case.
    @inline(__always)
    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    /// Scans one well-formed UTF-8 sequence of two to four bytes (no overlongs, surrogates or values above U+10FFFF).
    mutating func scanMultiByteScalar(lead: UInt8) throws(JSONSyntaxError) {
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: throw error(.invalidUTF8)
        }
        guard position + length <= end else { throw JSONSyntaxError(.unexpectedEnd, at: end) }
        guard secondRange.contains(byte(at: position + 1)) else { throw JSONSyntaxError(.invalidUTF8, at: position + 1) }
        var i = position + 2
        while i < position + length {
            guard byte(at: i) & 0xC0 == 0x80 else { throw JSONSyntaxError(.invalidUTF8, at: i) }
            i += 1
        }
        position += length
    }

    /// Scans a number; returns whether it is written as an integer (no fraction, no exponent).
    mutating func scanNumber() throws(JSONSyntaxError) -> Bool {
        let start = position
        if byte(at: position) == 0x2D { position += 1 } // -
        guard position < end else { throw JSONSyntaxError(.invalidNumber, at: start) }
        let first = byte(at: position)
        if first == 0x30 {
            position += 1
        } else if first &- 0x31 < 9 {
            position += 1
            skipDigits()
        } else {
            throw error(.invalidNumber)
        }
        var integral = true
        if position < end, byte(at: position) == 0x2E { // .
            position += 1
            guard skipDigits() else { throw error(.invalidNumber) }
            integral = false
        }
        if position < end, byte(at: position) | 0x20 == 0x65 { // e E
            position += 1
            if position < end, byte(at: position) == 0x2B || byte(at: position) == 0x2D { position += 1 }
            guard skipDigits() else { throw error(.invalidNumber) }
            integral = false
        }
        return integral
    }

    /// Skips ASCII digits; returns whether there was at least one.
    @inline(__always)
    @discardableResult
    mutating func skipDigits() -> Bool {
        let start = position
        while position < end, byte(at: position) &- 0x30 < 10 { position += 1 }
        return position > start
    }

    /// Scans `true`, `false` or `null`; `literal` is its ASCII text.
    mutating func scanLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for i in 0..<count {
            guard position < end else { throw error(.unexpectedEnd) }
            guard byte(at: position) == text[i] else { throw error(.unexpectedByte) }
            position += 1
        }
    }

    /// Scans a value that is not a container, starting at its first byte `b`; returns its kind and flags.
    @inline(__always)
    mutating func scanScalar(_ b: UInt8) throws(JSONSyntaxError) -> (JSONValueKind, JSONMember.Flags) {
        switch b {
        case JSONCursor.quote:
            return (.string, try scanString() ? .escaped : [])
        case 0x2D, 0x30...0x39:
            return (.number, try scanNumber() ? .integral : [])
        case 0x74:
            try scanLiteral("true")
            return (.bool, [])
        case 0x66:
            try scanLiteral("false")
            return (.bool, [])
        case 0x6E:
            try scanLiteral("null")
            return (.null, [])
        default:
            throw error(.unexpectedByte)
        }
    }

    // MARK: Containers

    /// Scans a member's key, the colon and the whitespace up to the member's value.
    @inline(__always)
    mutating func scanKeyAndColon() throws(JSONSyntaxError) -> (start: Int, length: Int, escaped: Bool) {
        guard try current() == JSONCursor.quote else { throw error(.unexpectedByte) }
        let start = position + 1
        let escaped = try scanString()
        let length = position - 1 - start
        guard try nextSignificant() == 0x3A else { throw error(.unexpectedByte) } // :
        position += 1
        skipWhitespace()
        return (start, length, escaped)
    }

    /// Scans any value starting at its first byte `b`; `depth` is the nesting depth of a container value.
    @inline(__always)
    mutating func scanValue(_ b: UInt8, depth: Int) throws(JSONSyntaxError) -> (JSONValueKind, JSONMember.Flags) {
        if b == 0x7B || b == 0x5B { // { [
            try skipContainer(depth: depth)
            return (b == 0x7B ? .object : .array, [])
        }
        return try scanScalar(b)
    }

    /// Validates and skips an object or array starting at its opening bracket, which sits at nesting
    /// `depth` (the outermost value has depth 1). Iterative, so any input is safe for the stack.
    mutating func skipContainer(depth: Int) throws(JSONSyntaxError) {
        var objects = NestingStack()
        var level = 0
        // At the top of each turn `position` is at the first byte of a value.
        while true {
            let b = byte(at: position)
            if b == 0x7B || b == 0x5B {
                guard depth + level <= JSONScanner.maximumDepth else { throw error(.tooDeep) }
                let isObject = b == 0x7B
                objects[level] = isObject
                level += 1
                position += 1
                let next = try nextSignificant()
                if next == (isObject ? 0x7D : 0x5D) {
                    position += 1
                    level -= 1
                } else {
                    if isObject { _ = try scanKeyAndColon() }
                    _ = try current()
                    continue
                }
            } else {
                _ = try scanScalar(b)
            }
            // A value is complete: move to the next one, closing containers on the way.
            while true {
                if level == 0 { return }
                let next = try nextSignificant()
                let isObject = objects[level - 1]
                if next == 0x2C { // ,
                    position += 1
                    skipWhitespace()
                    if isObject { _ = try scanKeyAndColon() }
                    _ = try current()
                    break
                } else if next == (isObject ? 0x7D : 0x5D) {
                    position += 1
                    level -= 1
                } else {
                    throw error(.unexpectedByte)
                }
            }
        }
    }
}
