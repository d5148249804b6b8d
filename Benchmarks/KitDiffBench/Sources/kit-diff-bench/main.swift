import Foundation
import TallyKit

/// A seeded xorshift generator, so every run diffs the same arrays.
struct Xorshift: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let parsed = Int(arguments[index + 1])
    else { return value }
    return parsed
}

let count = option("--items", default: 10_000)
let runs = option("--runs", default: 51)
var random = Xorshift(state: 0x2545_F491_4F6C_DD1D)
func row(using random: inout Xorshift) -> FeedRow {
    let id = UUIDv7.make(ms: 1_763_700_000_000, using: &random)
    return FeedRow(itemId: id, height: 300,
                   context: ExposureContext(impressionId: "imp-" + id, modelInfo: "rec-v12", feedPosition: 0))
}

let old = (0..<count).map { _ in row(using: &random) }
var changed = old
for index in stride(from: 0, to: count, by: 25) { changed[index].height += 1 }           // 4 % updated
for index in stride(from: count - 1, through: 0, by: -34) { changed.remove(at: index) }   // 3 % deleted
for index in stride(from: 0, to: changed.count, by: 33) { changed.insert(row(using: &random), at: index) } // 3 % inserted
var shuffled = old
shuffled.shuffle(using: &random)
let scenarios: [(String, [FeedRow])] = [
    ("unchanged", old),
    ("10% changed (4% updated, 3% deleted, 3% inserted)", changed),
    ("shuffled", shuffled),
    ("reversed", Array(old.reversed())),
    ("all replaced", (0..<count).map { _ in row(using: &random) }),
]

print("ListDiff of \(count) feed rows (36-character ids), median of \(runs) runs after one warm-up; target <= 5 ms")
let clock = ContinuousClock()
for (name, new) in scenarios {
    var changes = 0
    var samples: [Duration] = []
    for run in 0...runs {
        let elapsed = clock.measure {
            let result = ListDiff.diff(from: old, to: new)
            changes = result.deletes.count + result.inserts.count + result.moves.count + result.updates.count
        }
        if run > 0 { samples.append(elapsed) }
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let ms = Double(median.components.attoseconds) / 1e15 + Double(median.components.seconds) * 1_000
    print("  \(name): \(String(format: "%.2f", ms)) ms (\(changes) changes)")
}
