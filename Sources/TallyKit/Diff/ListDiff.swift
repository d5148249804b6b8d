/// Paul Heckel's linear-time list diff, as IGListKit's `ListDiff` runs it.
///
/// One pass over the old array builds a table from identity to the old positions that carry it;
/// one pass over the new array takes, for each value, the earliest unclaimed old position with
/// the same identity. Values left unmatched are deletes or inserts; a matched value is a move when
/// its rank among the matched values differs between the two arrays (IGListKit's
/// `old - deletesBefore + insertsBefore != new`), and an update when its content changed.
/// Repeated identities pair up in order: the k-th occurrence in the new array takes the k-th in
/// the old. Time and memory are O(old + new) with hashing.
public enum ListDiff {
    /// The changes that turn `old` into `new`. Inlinable so that callers get it specialized for
    /// their element type: unspecialized, every hash and comparison goes through witness tables.
    @inlinable
    public static func diff<Element: Diffable>(from old: [Element], to new: [Element]) -> DiffResult {
        let oldCount = old.count
        let newCount = new.count
        // Each identity's first unclaimed old index; the rest of its old indices are chained
        // through `nextOld` in ascending order (built by walking the old array backwards).
        var firstOld = [Element.DiffIdentifier: Int](minimumCapacity: oldCount)
        var nextOld = [Int](repeating: -1, count: oldCount)
        var index = oldCount - 1
        while index >= 0 {
            if let following = firstOld.updateValue(index, forKey: old[index].diffIdentifier) {
                nextOld[index] = following
            }
            index -= 1
        }

        var oldToNew = [Int](repeating: -1, count: oldCount)
        var newToOld = [Int](repeating: -1, count: newCount)
        for newIndex in 0..<newCount {
            guard let slot = firstOld.index(forKey: new[newIndex].diffIdentifier) else { continue }
            let oldIndex = firstOld.values[slot]
            guard oldIndex >= 0 else { continue }
            firstOld.values[slot] = nextOld[oldIndex]
            oldToNew[oldIndex] = newIndex
            newToOld[newIndex] = oldIndex
        }

        var result = DiffResult()
        // An old value's rank among the values both arrays keep, reusing `nextOld`'s storage.
        var oldRank = nextOld
        var rank = 0
        for oldIndex in 0..<oldCount {
            if oldToNew[oldIndex] < 0 {
                result.deletes.append(oldIndex)
            } else {
                oldRank[oldIndex] = rank
                rank += 1
            }
        }
        rank = 0
        for newIndex in 0..<newCount {
            let oldIndex = newToOld[newIndex]
            if oldIndex < 0 {
                result.inserts.append(newIndex)
                continue
            }
            if oldRank[oldIndex] != rank {
                result.moves.append(DiffMove(from: oldIndex, to: newIndex))
            }
            rank += 1
            if !new[newIndex].isContentEqual(to: old[oldIndex]) {
                result.updates.append(oldIndex)
            }
        }
        result.updates.sort()
        return result
    }
}
