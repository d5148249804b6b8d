/// One bit per open container while the scanner skips nested values: set for an object,
/// clear for an array. Fixed size (`JSONScanner.maximumDepth` bits), so it never allocates.
struct NestingStack {
    /// 8 × 64 = 512 bits.
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// Whether the container at `level` (0-based, below 512) is an object.
    subscript(level: Int) -> Bool {
        get {
            withUnsafeBytes(of: words) { raw in
                raw.load(fromByteOffset: (level >> 6) << 3, as: UInt64.self) >> UInt64(level & 63) & 1 == 1
            }
        }
        set {
            withUnsafeMutableBytes(of: &words) { raw in
                let offset = (level >> 6) << 3
                let bit: UInt64 = 1 << UInt64(level & 63)
                let word = raw.load(fromByteOffset: offset, as: UInt64.self)
                raw.storeBytes(of: newValue ? word | bit : word & ~bit, toByteOffset: offset, as: UInt64.self)
            }
        }
    }
}
