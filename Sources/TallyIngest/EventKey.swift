import TallyEvents

/// The compact form of an idempotency key in `event_keys`: a byte naming the family, then the
/// 16 bytes of the UUID when the key is one in canonical lowercase text (what the kits and
/// `UUID().uuidString.lowercased()` send), else the family byte with its high bit set and the
/// key's UTF-8 text. Two keys have the same compact form exactly when they are the same text
/// in the same family, so dedup is what it was on the text.
package enum EventKey {
    /// The family byte of `reading_events`, `feedback_events`, `exposure_events`, `observability_events`.
    package static let reading: UInt8 = 1
    package static let feedback: UInt8 = 2
    package static let exposure: UInt8 = 3
    package static let observability: UInt8 = 4

    /// The family byte of `event`'s table.
    package static func family(of event: Event) -> UInt8 {
        switch event {
        case .reading: reading
        case .feedback: feedback
        case .exposure: exposure
        case .observability: observability
        }
    }

    /// Calls `body` with the compact form of `key` in the family `tag`.
    package static func withCompact<T>(_ key: String, family tag: UInt8, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        var bytes: [UInt8] = []
        append(key, family: tag, to: &bytes)
        return try bytes.withUnsafeBytes(body)
    }

    /// Appends the compact form of `key` in the family `tag` to `bytes`.
    @inline(__always)
    package static func append(_ key: String, family tag: UInt8, to bytes: inout [UInt8]) {
        var key = key
        key.withUTF8 { text in
            if text.count == 36, let (high, low) = uuidBytes(text) {
                bytes.append(tag)
                withUnsafeBytes(of: high) { bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: low) { bytes.append(contentsOf: $0) }
            } else {
                bytes.append(tag | 0x80)
                bytes.append(contentsOf: text)
            }
        }
    }

    /// The 16 bytes of a canonical lowercase UUID (`8-4-4-4-12` hex digits), else nil.
    @inline(__always)
    package static func uuidBytes(_ text: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for (i, c) in text.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") else { return nil }
                continue
            }
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c &- UInt8(ascii: "a") &+ 10
            default: return nil
            }
            if digits < 16 { high = high << 4 | UInt64(v) } else { low = low << 4 | UInt64(v) }
            digits += 1
        }
        return (high.bigEndian, low.bigEndian)
    }
}
