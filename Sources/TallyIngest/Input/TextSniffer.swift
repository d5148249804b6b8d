/// Tells text from binary data by its first bytes: UTF-8 text has no NUL and no invalid sequence.
enum TextSniffer {
    /// How many leading bytes are examined.
    static let sampleSize = 64 << 10

    /// The offset of the first NUL byte or invalid UTF-8 sequence in `bytes`, or nil.
    /// A sequence cut short by the end of `bytes` is not counted: the sample may end inside one.
    static func firstNonText(in bytes: UnsafeRawBufferPointer) -> Int? {
        let p = bytes.bindMemory(to: UInt8.self)
        var i = 0
        while i < p.count {
            let b = p[i]
            if b < 0x80 {
                if b == 0 { return i }
                i += 1
                continue
            }
            // The lead byte gives the length and the allowed range of the second byte (RFC 3629).
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xED: length = 3; high = 0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; low = 0x90
            case 0xF4: length = 4; high = 0x8F
            case 0xF1...0xF3: length = 4
            default: return i
            }
            for k in 1..<length {
                guard i + k < p.count else { return nil }
                let range = k == 1 ? low...high : 0x80...0xBF
                guard range.contains(p[i + k]) else { return i }
            }
            i += length
        }
        return nil
    }
}
