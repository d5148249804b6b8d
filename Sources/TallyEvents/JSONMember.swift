/// One member of a scanned object: where its key and value lie in the scanned bytes.
struct JSONMember {
    /// What the scan learnt about a value beyond its kind.
    struct Flags: OptionSet {
        /// The flag bits.
        let rawValue: UInt8
        /// A string (or key) holding backslash escapes, so it must be decoded, not copied.
        static let escaped = Flags(rawValue: 1)
        /// A number written without fraction or exponent.
        static let integral = Flags(rawValue: 2)
    }

    /// The first eight bytes of the raw key, little-endian, zero-padded; compared before the rest.
    var keyPrefix: UInt64
    /// Offset of the key's first byte (after the quote).
    var keyStart: Int
    /// Length of the raw key in bytes (quotes excluded).
    var keyLength: Int
    /// Offset of the value's first byte.
    var valueStart: Int
    /// Offset just past the value's last byte.
    var valueEnd: Int
    /// The value's kind.
    var kind: JSONValueKind
    /// Flags of the value.
    var valueFlags: Flags
    /// Whether the raw key holds escapes.
    var keyEscaped: Bool

    /// Whether the raw key is the `count` bytes at `key`, whose `prefix` word is given; the
    /// member's own key lies in the bytes at `base`.
    @inline(__always)
    func hasKey(_ key: UnsafeRawPointer, count: Int, prefix: UInt64, keysAt base: UnsafeRawPointer) -> Bool {
        guard keyLength == count, keyPrefix == prefix else { return false }
        let own = base + keyStart
        var i = 8 // the prefix word covered the first eight
        while i < count {
            guard own.load(fromByteOffset: i, as: UInt8.self) == key.load(fromByteOffset: i, as: UInt8.self) else { return false }
            i += 1
        }
        return true
    }

    /// The zero-padded little-endian word of the first `min(count, 8)` bytes at `start`;
    /// `readable` is how many bytes from `start` on may be read.
    @inline(__always)
    static func prefix(_ start: UnsafeRawPointer, count: Int, readable: Int) -> UInt64 {
        if readable >= 8 {
            let word = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
            return count >= 8 ? word : word & ((1 << UInt64(count << 3)) &- 1)
        }
        var word: UInt64 = 0
        var i = min(count, 8)
        while i > 0 {
            i -= 1
            word = word << 8 | UInt64(start.load(fromByteOffset: i, as: UInt8.self))
        }
        return word
    }
}
