import TallyKit

extension Xoshiro256StarStar {
    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// A uniformly drawn integer of `range`.
    mutating func draw(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// A uniformly drawn number of milliseconds of `range` (given in seconds).
    mutating func seconds(_ range: ClosedRange<Int>) -> Int64 {
        Int64(draw(range)) * 1_000
    }

    /// `count` distinct integers of `0..<n`, drawn uniformly.
    mutating func pick(_ count: Int, of n: Int) -> Set<Int> {
        Set((0..<n).shuffled(using: &self).prefix(count))
    }

    /// A fresh generator seeded from this one, for a kit's ids.
    mutating func split() -> Xoshiro256StarStar {
        Xoshiro256StarStar(seed: next())
    }
}
