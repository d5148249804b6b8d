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
}
