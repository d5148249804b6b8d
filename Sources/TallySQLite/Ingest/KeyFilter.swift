/// A Bloom filter over the keys of a settled run (`event_keys` for `KeyRuns`, each family's
/// settled tables for `StateRuns`): says "not stored" for most keys that are not, and never for a
/// key that is, so that a new key costs no read of the settled run at all (`EventWriter.claim`).
/// Sized at `bitsPerKey` bits for each key it was made for, with `hashes` probes: about 1 in 120
/// new keys is probed in vain once it is full, far fewer before. The bits are stored with the
/// store (`event_key_filter`, `state_run_filters`), so every process reads the same filter; its
/// hashing (FNV-1a, then a 64-bit finalizer) does not depend on the process or the platform.
struct KeyFilter {
    /// Bits per key the filter is made for.
    static let bitsPerKey = 10
    /// Bits set and tested for each key.
    static let hashes = 7

    /// The bits, 64 to a word.
    private var words: [UInt64]

    /// An empty filter for up to `capacity` keys (no bits when `capacity` is 0: then nothing may be stored).
    init(capacity: Int) {
        words = [UInt64](repeating: 0, count: (capacity * Self.bitsPerKey + 63) / 64)
    }

    /// The filter whose bits `bytes` holds, as `withBytes` gave them.
    init(bytes: UnsafeRawBufferPointer) {
        words = (0..<bytes.count / 8).map { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
    }

    /// Calls `body` with the bits as bytes (little-endian words), the form `init(bytes:)` reads;
    /// without a copy on a little-endian machine.
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        guard 1.littleEndian == 1 else { return try words.map(\.littleEndian).withUnsafeBytes(body) }
        return try words.withUnsafeBytes(body)
    }

    /// Adds `key`.
    mutating func insert(_ key: UnsafeRawBufferPointer) {
        guard !words.isEmpty else { return }
        let bits = UInt64(words.count * 64)
        let (first, step) = Self.hash(key)
        for i in 0..<UInt64(Self.hashes) {
            let bit = (first &+ i &* step) % bits
            words[Int(bit >> 6)] |= 1 << (bit & 63)
        }
    }

    /// False when `key` was certainly never inserted.
    func mayContain(_ key: UnsafeRawBufferPointer) -> Bool {
        guard !words.isEmpty else { return false }
        let bits = UInt64(words.count * 64)
        let (first, step) = Self.hash(key)
        for i in 0..<UInt64(Self.hashes) {
            let bit = (first &+ i &* step) % bits
            if words[Int(bit >> 6)] & (1 << (bit & 63)) == 0 { return false }
        }
        return true
    }

    /// The start and the step of `key`'s bit positions (double hashing over a 64-bit FNV-1a hash).
    @inline(__always)
    private static func hash(_ key: UnsafeRawBufferPointer) -> (first: UInt64, step: UInt64) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let first = mix(hash)
        return (first, mix(first) | 1)
    }

    /// The splitmix64 finalizer: spreads every input bit over the output.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
