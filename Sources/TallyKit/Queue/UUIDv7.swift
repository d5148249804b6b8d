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
        let hex = hex16(high) + hex16(low)
        var out = ""
        out.reserveCapacity(36)
        for (index, character) in hex.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { out.append("-") }
            out.append(character)
        }
        return out
    }

    /// A version-7 UUID for instant `ms` with system randomness.
    public static func make(ms: Int64) -> String {
        var random = SystemRandomNumberGenerator()
        return make(ms: ms, using: &random)
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
