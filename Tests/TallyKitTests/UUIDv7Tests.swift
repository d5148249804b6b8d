import Testing
import TallyKit

struct UUIDv7Tests {
    private struct Counter: RandomNumberGenerator {
        var state: UInt64 = 0
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
    }

    @Test func carriesVersionVariantAndTime() {
        var random = Counter()
        let id = UUIDv7.make(ms: 0x0190_1234_5678, using: &random)
        #expect(id.count == 36)
        #expect(id.hasPrefix("01901234-5678-7"))
        let variant = id[id.index(id.startIndex, offsetBy: 19)]
        #expect("89ab".contains(variant))
    }

    @Test func laterInstantsSortLater() {
        var random = Counter()
        let ids = (0..<100).map { UUIDv7.make(ms: 1_763_700_000_000 + Int64($0), using: &random) }
        #expect(ids == ids.sorted())
    }

    @Test func formatsEveryNibbleInOrder() {
        // The bits the generator draws, laid out by RFC 9562 and written with String(radix:).
        var random = Counter()
        var expected = Counter()
        for step in 0..<1_000 {
            let ms = 1_763_700_000_000 + Int64(step) * 7_919
            let a = expected.next(), b = expected.next()
            let high = UInt64(ms) << 16 | 0x7000 | (a & 0x0FFF)
            let low = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
            let hex = [high, low].map { word in
                let digits = String(word, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
                String(hex.dropFirst(range.lowerBound).prefix(range.count))
            }
            #expect(UUIDv7.make(ms: ms, using: &random) == groups.joined(separator: "-"))
        }
    }
}
