/// A fast pseudo-random generator (xoshiro256**) for the random bits of event ids.
///
/// `SystemRandomNumberGenerator` asks the kernel on every call (a system call each time on
/// Linux), which would dominate the cost of minting an id on the app's threads. The kits
/// default to this generator seeded once from the system's randomness: 256 bits of seed make
/// two devices' sequences collide with negligible probability. Seed it explicitly for
/// reproducible ids in tests and simulations.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var s0, s1, s2, s3: UInt64

    /// A generator seeded from the system's random source.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.init(state: system.next(), system.next(), system.next(), system.next())
    }

    /// A generator whose sequence is fixed by `seed` (expanded with SplitMix64, as the
    /// algorithm's authors recommend).
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        self.init(state: splitMix(), splitMix(), splitMix(), splitMix())
    }

    /// A generator starting from the raw state `a, b, c, d` (not all zero).
    init(state a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) {
        // An all-zero state would only ever produce zeros.
        (s0, s1, s2, s3) = (a | b | c | d) == 0 ? (1, 0, 0, 0) : (a, b, c, d)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }
}
