/// A fixed set of object keys, matched against raw key bytes without building strings.
public struct JSONKeySet: Sendable {
    /// The keys' UTF-8, grouped by length for a quick first test.
    private let byLength: [Int: [[UInt8]]]

    /// Creates the set of `keys`.
    public init(_ keys: [String]) {
        byLength = Dictionary(grouping: keys.map { Array($0.utf8) }, by: \.count)
    }

    /// Whether the `count` bytes at `key` spell one of the keys.
    func contains(_ key: UnsafeRawPointer, count: Int) -> Bool {
        guard let candidates = byLength[count] else { return false }
        let bytes = UnsafeRawBufferPointer(start: key, count: count)
        return candidates.contains { $0.elementsEqual(bytes) }
    }

    /// Whether `key` is one of the keys.
    func contains(_ key: String) -> Bool {
        byLength[key.utf8.count]?.contains { $0.elementsEqual(key.utf8) } ?? false
    }
}
