import Foundation

/// Reads the two top-level members `latency` needs out of an event's `properties` (the measured
/// value and the group) straight from the JSON text, without SQLite's JSON functions; only where
/// its answer is certainly what `json_extract(properties, '$."name"')` answers, and nil for any
/// other text, which the caller then asks SQLite about (`latency_row.sql`).
///
/// Certain means: the text is one well-formed JSON object (strict JSON, nested at most 64 deep, no
/// NUL byte), none of its keys holds a backslash, and neither name is a key twice; the value is an
/// integer literal of at most 18 digits (which SQLite reads as that integer, and a double holds
/// exactly), or absent, `null` or a string (no value); the group is a string without escapes (its
/// bytes are the text SQLite gives), an integer literal of at most 18 digits, or absent or `null`.
/// Anything else (fractions, exponents, longer integers, `true` and `false`, nested values,
/// escapes in the group) is left to SQLite: its number conversions and unescaping are its own.
struct LatencyScanner {
    /// The group of an event as its properties hold it.
    enum Group: Equatable {
        /// No such property, or `null`.
        case none
        /// An integer.
        case int(Int64)
        /// A string: the offsets of its bytes (between the quotes) in the text.
        case text(Range<Int>)
    }

    /// What one event's properties hold: the value (nil when there is none, so the event is not
    /// counted) and the group.
    struct Reading: Equatable {
        /// The measured value, when it is a number.
        var value: Int64?
        /// The group.
        var group: Group
    }

    private let field: [UInt8]
    private let by: [UInt8]
    /// False when a name does not read as one whole key in SQLite's path `$."name"` (empty, or
    /// holding a `"` or a NUL byte): then every event is SQLite's to read.
    private let isUsable: Bool

    /// A scanner for property `field` (the value) and `by` (the group).
    init(field: String, by: String) {
        self.field = Array(field.utf8)
        self.by = Array(by.utf8)
        isUsable = [self.field, self.by].allSatisfy { name in
            !name.isEmpty && !name.contains(Self.quote) && !name.contains(0)
        }
    }

    /// The value and group of the JSON object `text`, or nil when only SQLite can tell.
    func read(_ text: UnsafeBufferPointer<UInt8>) -> Reading? {
        guard isUsable, text.baseAddress != nil else { return nil }
        var cursor = Cursor(text)
        cursor.skipSpace()
        guard cursor.take(Self.openBrace) else { return nil }
        var reading = Reading(value: nil, group: .none)
        var seenField = false, seenBy = false
        cursor.skipSpace()
        if !cursor.take(Self.closeBrace) {
            repeat {
                cursor.skipSpace()
                guard let key = cursor.plainString() else { return nil }
                cursor.skipSpace()
                guard cursor.take(Self.colon) else { return nil }
                cursor.skipSpace()
                let isField = cursor.equals(key, field), isBy = cursor.equals(key, by)
                if isField || isBy {
                    guard !(isField && seenField), !(isBy && seenBy), let member = cursor.member() else { return nil }
                    if isField {
                        seenField = true
                        switch member {
                        case .int(let value): reading.value = value
                        case .null, .text, .escapedText: reading.value = nil
                        }
                    }
                    if isBy {
                        seenBy = true
                        switch member {
                        case .int(let value): reading.group = .int(value)
                        case .null: reading.group = .none
                        case .text(let range): reading.group = .text(range)
                        case .escapedText: return nil
                        }
                    }
                } else {
                    guard cursor.skipValue(depth: 1) else { return nil }
                }
                cursor.skipSpace()
            } while cursor.take(Self.comma)
            guard cursor.take(Self.closeBrace) else { return nil }
        }
        cursor.skipSpace()
        return cursor.isAtEnd ? reading : nil
    }

    // MARK: - Bytes

    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":"), comma = UInt8(ascii: ",")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}"), openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-"), zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")

    /// A top-level member's value, as far as the scanner reads one.
    private enum Member {
        case int(Int64)
        case null
        case text(Range<Int>)
        /// A well-formed string with escapes: what it decodes to is SQLite's to say.
        case escapedText
    }

    /// A position in the text; reading past its end reads NUL, which no JSON holds.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position == bytes.count }

        var current: UInt8 { position < bytes.count ? bytes[position] : 0 }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            position += 1
            return true
        }

        /// Skips JSON's whitespace (SQLite's too): space, tab, line feed, carriage return.
        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// Whether the bytes at `range` are `name`.
        func equals(_ range: Range<Int>, _ name: [UInt8]) -> Bool {
            range.count == name.count && name.withUnsafeBufferPointer { name in
                memcmp(bytes.baseAddress! + range.lowerBound, name.baseAddress!, name.count) == 0
            }
        }

        /// A string without backslashes at the cursor: the range of its bytes; nil for anything else.
        mutating func plainString() -> Range<Int>? {
            guard take(LatencyScanner.quote) else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == LatencyScanner.quote {
                    position += 1
                    return start..<position - 1
                }
                if byte < 0x20 || byte == LatencyScanner.backslash { return nil }
                position += 1
            }
            return nil
        }

        /// Skips a well-formed string (escapes checked as JSON has them); false for anything else.
        mutating func skipString() -> Bool {
            guard take(LatencyScanner.quote) else { return false }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case LatencyScanner.quote:
                    return true
                case LatencyScanner.backslash:
                    switch current {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        position += 1
                    case UInt8(ascii: "u"):
                        position += 1
                        for _ in 0..<4 {
                            switch current {
                            case LatencyScanner.zero...LatencyScanner.nine, UInt8(ascii: "a")...UInt8(ascii: "f"),
                                 UInt8(ascii: "A")...UInt8(ascii: "F"):
                                position += 1
                            default:
                                return false
                            }
                        }
                    default:
                        return false
                    }
                case ..<0x20:
                    return false
                default:
                    continue
                }
            }
            return false
        }

        /// The top-level member's value at the cursor when the scanner reads it, else nil.
        mutating func member() -> Member? {
            switch current {
            case LatencyScanner.quote:
                let start = position
                if let range = plainString() { return .text(range) }
                position = start
                return skipString() ? .escapedText : nil
            case LatencyScanner.minus, LatencyScanner.zero...LatencyScanner.nine:
                return integer().map(Member.int)
            case UInt8(ascii: "n"):
                return skipWord("null") ? .null : nil
            default:
                return nil
            }
        }

        /// An integer literal of at most 18 digits not followed by a fraction or an exponent; nil
        /// for anything else.
        mutating func integer() -> Int64? {
            let negative = take(LatencyScanner.minus)
            let start = position
            var magnitude: Int64 = 0
            while case LatencyScanner.zero...LatencyScanner.nine = current {
                guard position - start < 18 else { return nil }
                magnitude = magnitude * 10 + Int64(current - LatencyScanner.zero)
                position += 1
            }
            let digits = position - start
            guard digits > 0, !(digits > 1 && bytes[start] == LatencyScanner.zero) else { return nil }
            switch current {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: return negative ? -magnitude : magnitude
            }
        }

        /// Skips a well-formed number (JSON's grammar, which SQLite's parser takes); false otherwise.
        mutating func skipNumber() -> Bool {
            _ = take(LatencyScanner.minus)
            let start = position
            let digits = skipDigits()
            guard digits > 0, !(digits > 1 && bytes[start] == LatencyScanner.zero) else { return false }
            if take(UInt8(ascii: ".")) {
                guard skipDigits() > 0 else { return false }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(LatencyScanner.minus) }
                guard skipDigits() > 0 else { return false }
            }
            return true
        }

        /// Skips the digits at the cursor; how many.
        private mutating func skipDigits() -> Int {
            let start = position
            while case LatencyScanner.zero...LatencyScanner.nine = current { position += 1 }
            return position - start
        }

        /// Skips `word` (`true`, `false`, `null`); false when the text does not hold it here.
        mutating func skipWord(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - position >= count,
                  UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(
                      UnsafeBufferPointer(start: word.utf8Start, count: count)) else { return false }
            position += count
            return true
        }

        /// Skips any well-formed JSON value nested `depth` deep; false for anything else.
        mutating func skipValue(depth: Int) -> Bool {
            switch current {
            case LatencyScanner.quote:
                return skipString()
            case LatencyScanner.minus, LatencyScanner.zero...LatencyScanner.nine:
                return skipNumber()
            case UInt8(ascii: "t"):
                return skipWord("true")
            case UInt8(ascii: "f"):
                return skipWord("false")
            case UInt8(ascii: "n"):
                return skipWord("null")
            case LatencyScanner.openBrace:
                return skipContainer(depth: depth, close: LatencyScanner.closeBrace, keyed: true)
            case LatencyScanner.openBracket:
                return skipContainer(depth: depth, close: LatencyScanner.closeBracket, keyed: false)
            default:
                return false
            }
        }

        /// Skips an object (`keyed`) or an array at the cursor, members checked.
        private mutating func skipContainer(depth: Int, close: UInt8, keyed: Bool) -> Bool {
            guard depth < 64 else { return false }
            position += 1
            skipSpace()
            if take(close) { return true }
            repeat {
                skipSpace()
                if keyed {
                    guard skipString() else { return false }
                    skipSpace()
                    guard take(LatencyScanner.colon) else { return false }
                    skipSpace()
                }
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
            } while take(LatencyScanner.comma)
            return take(close)
        }
    }
}
