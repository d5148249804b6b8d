import Testing
import TallyKit
import TallyTestSupport

struct ListDiffTests {
    /// A list value: `id` is its identity, `version` its content.
    struct Item: Diffable, Equatable, CustomStringConvertible {
        var id: Int
        var version: Int
        var diffIdentifier: Int { id }
        var description: String { "\(id).\(version)" }
    }

    private static func items(_ text: String) -> [Item] {
        text.split(separator: " ").map { token in
            let parts = token.split(separator: ".")
            return Item(id: Int(parts[0])!, version: parts.count > 1 ? Int(parts[1])! : 0)
        }
    }

    @Test(arguments: [
        // (old, new, deletes, inserts, moves as from>to, updates)
        ("", "", "", "", "", ""),
        ("1 2 3", "1 2 3", "", "", "", ""),
        ("1 2 3", "", "0 1 2", "", "", ""),
        ("", "1 2", "", "0 1", "", ""),
        ("1 2 3", "2 3", "0", "", "", ""),
        ("1 2 3", "1 4 2 3", "", "1", "", ""),
        ("1 2", "2 1", "", "", "1>0 0>1", ""),
        ("1 2 3", "1 2.1 3", "", "", "", "1"),
        ("1 2 3 4", "4 1 2 3", "", "", "3>0 0>1 1>2 2>3", ""),
        ("1 2 3", "3.1 2 1", "", "", "2>0 0>2", "2"),
        ("1 1 2", "2 1", "1", "", "2>0 0>1", ""),
        ("1 2", "1 1 2", "", "1", "", ""),
    ])
    func matchesIGListKitsClassification(_ row: (String, String, String, String, String, String)) {
        let result = ListDiff.diff(from: Self.items(row.0), to: Self.items(row.1))
        let moves = row.4.split(separator: " ").map { pair in
            let ends = pair.split(separator: ">")
            return DiffMove(from: Int(ends[0])!, to: Int(ends[1])!)
        }
        let numbers = { (text: String) in text.split(separator: " ").map { Int($0)! } }
        #expect(result == DiffResult(deletes: numbers(row.2), inserts: numbers(row.3), moves: moves, updates: numbers(row.5)))
        #expect(result.hasChanges == (row.0 != row.1))
    }

    @Test func applyingTheResultTurnsOldIntoNewWithUniqueIdentities() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<400 {
            let (old, new) = Self.randomPair(using: &random, universe: 60, repeats: false)
            let result = ListDiff.diff(from: old, to: new)
            #expect(Self.apply(result, old: old, new: new) == new, "old \(old) new \(new)")
            #expect(result == Self.reference(old: old, new: new), "old \(old) new \(new)")
        }
    }

    @Test func applyingTheResultTurnsOldIntoNewWithRepeatedIdentities() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<400 {
            let (old, new) = Self.randomPair(using: &random, universe: 6, repeats: true)
            let result = ListDiff.diff(from: old, to: new)
            #expect(Self.apply(result, old: old, new: new) == new, "old \(old) new \(new)")
        }
    }

    /// Two arrays: `old` drawn from `universe` identities, `new` from it by deleting, inserting,
    /// swapping and re-versioning at random.
    private static func randomPair(using random: inout SplitMix64, universe: Int, repeats: Bool) -> ([Item], [Item]) {
        var pool = Array(0..<universe)
        pool.shuffle(using: &random)
        let oldCount = Int.random(in: 0...min(40, universe), using: &random)
        let old: [Item] = repeats
            ? (0..<oldCount).map { _ in Item(id: Int.random(in: 0..<universe, using: &random), version: 0) }
            : pool.prefix(oldCount).map { Item(id: $0, version: 0) }
        var fresh = repeats ? pool : Array(pool.dropFirst(oldCount))
        var new = old.filter { _ in Int.random(in: 0..<4, using: &random) != 0 }
        for _ in 0..<Int.random(in: 0...8, using: &random) where !fresh.isEmpty {
            let id = repeats ? fresh[Int.random(in: 0..<fresh.count, using: &random)] : fresh.removeLast()
            new.insert(Item(id: id, version: 0), at: Int.random(in: 0...new.count, using: &random))
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) where new.count > 1 {
            new.swapAt(Int.random(in: 0..<new.count, using: &random), Int.random(in: 0..<new.count, using: &random))
        }
        for index in new.indices where Int.random(in: 0..<5, using: &random) == 0 {
            new[index].version += 1
        }
        return (old, new)
    }

    /// Performs `result` on `old` as a collection view's batch update does; inserted and updated
    /// values take their content from `new`.
    private static func apply(_ result: DiffResult, old: [Item], new: [Item]) -> [Item]? {
        let leaving = Set(result.deletes).union(result.moves.map(\.from))
        var staying = old.indices.filter { !leaving.contains($0) }.makeIterator()
        var source = [Int?](repeating: nil, count: new.count)
        for move in result.moves { source[move.to] = move.from }
        let inserted = Set(result.inserts)
        var applied: [Item] = []
        for newIndex in new.indices {
            if inserted.contains(newIndex) {
                applied.append(new[newIndex])
                continue
            }
            guard let oldIndex = source[newIndex] ?? staying.next() else { return nil }
            applied.append(result.updates.contains(oldIndex) ? Item(id: old[oldIndex].id, version: new[newIndex].version) : old[oldIndex])
        }
        return staying.next() == nil ? applied : nil
    }

    /// The expected result for unique identities, by quadratic search.
    private static func reference(old: [Item], new: [Item]) -> DiffResult {
        let partner = { (item: Item, others: [Item]) in others.firstIndex { $0.id == item.id } }
        var expected = DiffResult()
        expected.deletes = old.indices.filter { partner(old[$0], new) == nil }
        expected.inserts = new.indices.filter { partner(new[$0], old) == nil }
        for newIndex in new.indices {
            guard let oldIndex = partner(new[newIndex], old) else { continue }
            let keptBeforeInOld = old[..<oldIndex].filter { partner($0, new) != nil }.count
            let keptBeforeInNew = new[..<newIndex].filter { partner($0, old) != nil }.count
            if keptBeforeInOld != keptBeforeInNew {
                expected.moves.append(DiffMove(from: oldIndex, to: newIndex))
            }
            if old[oldIndex] != new[newIndex] {
                expected.updates.append(oldIndex)
            }
        }
        expected.updates.sort()
        return expected
    }
}
