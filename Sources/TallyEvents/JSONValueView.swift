/// One validated JSON value inside scanned bytes, decoded on demand by its accessors.
///
/// Typed accessors return `nil` when the value has another kind (or, for numbers, does not fit).
/// The view borrows the scanned bytes: use it only while they stay alive and unchanged.
public struct JSONValueView {
    /// The whole buffer that was scanned; `byteRange` refers to it.
    public let bytes: UnsafeRawBufferPointer
    /// The value's kind.
    public let kind: JSONValueKind
    /// What the scan learnt about the value beyond its kind.
    let flags: JSONMember.Flags
    /// Offsets of the value's text (quotes and brackets included, no surrounding whitespace).
    public let byteRange: Range<Int>

    /// Creates a view of a value the scanner has validated.
    init(bytes: UnsafeRawBufferPointer, kind: JSONValueKind, flags: JSONMember.Flags, range: Range<Int>) {
        self.bytes = bytes
        self.kind = kind
        self.flags = flags
        byteRange = range
    }

    /// The value's JSON text, exactly as it appears in the input.
    public var rawBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[byteRange])
    }

    /// The value's JSON text as a `String`, exactly as it appears in the input.
    public var rawText: String {
        String(decoding: rawBytes, as: UTF8.self)
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        kind == .null
    }

    /// The boolean, if the value is `true` or `false`.
    public var bool: Bool? {
        kind == .bool ? bytes[byteRange.lowerBound] == 0x74 : nil
    }

    /// The string with its escapes decoded, if the value is a string.
    public var string: String? {
        guard kind == .string else { return nil }
        let content = UnsafeRawBufferPointer(rebasing: bytes[byteRange.lowerBound + 1..<byteRange.upperBound - 1])
        return flags.contains(.escaped) ? JSONValueView.unescape(content) : String(decoding: content, as: UTF8.self)
    }

    /// The string's UTF-8 bytes between the quotes, if the value is a string without escapes.
    var unescapedStringBytes: UnsafeRawBufferPointer? {
        guard kind == .string, !flags.contains(.escaped) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[byteRange.lowerBound + 1..<byteRange.upperBound - 1])
    }

    /// The object with its members recorded, if the value is an object.
    public var object: JSONObjectView? {
        guard kind == .object else { return nil }
        var cursor = JSONCursor(bytes)
        cursor.position = byteRange.lowerBound
        return try? JSONObjectView(bytes: bytes, cursor: &cursor)
    }

    /// Decodes the content of a validated string that holds escapes.
    static func unescape(_ raw: UnsafeRawBufferPointer) -> String {
        // Decoding never lengthens: `\uXXXX` (6 bytes) is at most 3 UTF-8 bytes, a pair (12) is 4.
        String(unsafeUninitializedCapacity: raw.count) { out in
            var i = 0
            var n = 0
            while i < raw.count {
                let b = raw[i]
                guard b == JSONCursor.backslash else {
                    out[n] = b
                    n += 1
                    i += 1
                    continue
                }
                let escape = raw[i + 1]
                i += 2
                switch escape {
                case 0x62: out[n] = 0x08; n += 1 // b
                case 0x66: out[n] = 0x0C; n += 1 // f
                case 0x6E: out[n] = 0x0A; n += 1 // n
                case 0x72: out[n] = 0x0D; n += 1 // r
                case 0x74: out[n] = 0x09; n += 1 // t
                case 0x75: // u
                    var scalar = hexUnit(raw, at: i)
                    i += 4
                    if scalar & 0xFC00 == 0xD800 {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hexUnit(raw, at: i + 2) - 0xDC00)
                        i += 6
                    }
                    for unit in UTF8.encode(Unicode.Scalar(scalar)!)! {
                        out[n] = unit
                        n += 1
                    }
                default: out[n] = escape; n += 1 // " \ /
                }
            }
            return n
        }
    }

    /// The value of the four validated hex digits at `offset`.
    private static func hexUnit(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        var unit: UInt32 = 0
        for i in offset..<offset + 4 {
            unit = unit << 4 | UInt32(JSONCursor.hexValue(raw[i]) ?? 0)
        }
        return unit
    }
}

// MARK: - Preview

extension JSONValueView {
    /// The value's JSON text for messages, cut after about 40 bytes (at a character boundary) with `…`.
    var preview: String {
        let limit = 40
        guard byteRange.count > limit else { return rawText }
        var cut = byteRange.lowerBound + limit
        while cut > byteRange.lowerBound, bytes[cut] & 0xC0 == 0x80 { cut -= 1 } // not inside a UTF-8 sequence
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[byteRange.lowerBound..<cut]), as: UTF8.self) + "…"
    }
}
