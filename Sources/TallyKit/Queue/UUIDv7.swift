/// Time-ordered identifiers (RFC 9562 UUID version 7) for events the kits mint.
///
/// The first 48 bits are the Unix time in milliseconds, so ids minted later sort later and a
/// store keyed by them inserts at the end of its index.
public enum UUIDv7 {
    /// A version-7 UUID for instant `ms`, in lowercase 8-4-4-4-12 form, its other 74 bits from `random`.
    public static func make(ms: Int64, using random: inout some RandomNumberGenerator) -> String {
        let time = UInt64(max(0, ms)) & 0xFFFF_FFFF_FFFF
        let a = random.next() as UInt64
        let b = random.next() as UInt64
        let high = time << 16 | 0x7000 | (a & 0x0FFF)
        let low = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return format(high: high, low: low)
    }

    /// A version-7 UUID for instant `ms` with system randomness.
    public static func make(ms: Int64) -> String {
        var random = SystemRandomNumberGenerator()
        return make(ms: ms, using: &random)
    }

    /// The 128 bits `high`, `low` in lowercase 8-4-4-4-12 form, written straight into the
    /// string's storage: ids are minted on the app's threads for every event.
    private static func format(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789abcdef"
            var out = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    buffer[out] = UInt8(ascii: "-")
                    out += 1
                }
                let word = nibble < 16 ? high : low
                let shift = UInt64(60 - (nibble & 15) * 4)
                buffer[out] = digits.utf8Start[Int((word >> shift) & 0xF)]
                out += 1
            }
            return out
        }
    }
}
