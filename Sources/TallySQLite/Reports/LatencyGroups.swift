import Foundation

/// The values `latency` ranks, per group. A text group is found by its bytes, so that adding an
/// event's value costs no allocation once its group exists; `groups()` then keys each as SQLite's
/// rows read (a text as the String made of its bytes).
struct LatencyGroups {
    /// What a group is keyed by while values come in.
    private enum Key {
        case bytes([UInt8])
        case value(SQLValue)
    }

    private var keys: [Key] = []
    private var values: [[Double]] = []
    /// The text groups by a hash of their bytes (FNV-1a), each hash's groups in order.
    private var texts: [UInt64: [Int]] = [:]
    private var others: [SQLValue: Int] = [:]
    /// The text group found last: events of one group often come in runs.
    private var lastText: Int?

    /// Adds `value` to the group of text `bytes`.
    mutating func add(_ value: Double, text bytes: UnsafeBufferPointer<UInt8>) {
        if let last = lastText, case .bytes(let key) = keys[last], Self.equal(key, bytes) {
            values[last].append(value)
            return
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let index: Int
        if let found = texts[hash]?.first(where: { if case .bytes(let key) = keys[$0] { Self.equal(key, bytes) } else { false } }) {
            index = found
        } else {
            index = keys.count
            keys.append(.bytes(Array(bytes)))
            values.append([])
            texts[hash, default: []].append(index)
        }
        lastText = index
        values[index].append(value)
    }

    /// Adds `value` to the group `key` (a text by its bytes, as `add(_:text:)` does).
    mutating func add(_ value: Double, key: SQLValue) {
        if case .text(var text) = key {
            text.withUTF8 { add(value, text: $0) }
            return
        }
        let index: Int
        if let found = others[key] {
            index = found
        } else {
            index = keys.count
            keys.append(.value(key))
            values.append([])
            others[key] = index
        }
        values[index].append(value)
    }

    /// Whether `key` holds `bytes`.
    private static func equal(_ key: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        key.count == bytes.count && key.withUnsafeBufferPointer { key in
            key.count == 0 || memcmp(key.baseAddress!, bytes.baseAddress!, key.count) == 0
        }
    }

    /// Every group with its values, in no order: a text keyed as `Statement.text` reads it, and
    /// groups of different bytes that read as one String (invalid UTF-8 is read as U+FFFD) as one.
    func groups() -> [SQLValue: [Double]] {
        var groups: [SQLValue: [Double]] = [:]
        for (key, values) in zip(keys, values) {
            switch key {
            case .bytes(let bytes): groups[.text(String(decoding: bytes, as: UTF8.self)), default: []] += values
            case .value(let value): groups[value, default: []] += values
            }
        }
        return groups
    }

    // MARK: - Sorting

    /// `values` in ascending order, as `sorted()` orders them but for `-0.0` and `0.0` (equal
    /// there, in either order; here `-0.0` first): a radix sort, least significant byte first,
    /// of each double's bits made to order as unsigned integers, skipping each byte every value
    /// shares (most of them, for whole milliseconds). Not for NaN, which no value is.
    static func sorted(_ values: [Double]) -> [Double] {
        guard values.count > 256 else { return values.sorted() }
        let sign: UInt64 = 1 << 63
        var keys = values.map { value in value.sign == .minus ? ~value.bitPattern : value.bitPattern | sign }
        var spare = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 8 * 256)
        for key in keys {
            for byte in 0..<8 {
                counts[byte << 8 | Int(truncatingIfNeeded: key >> (byte << 3)) & 0xFF] += 1
            }
        }
        var inSpare = false
        keys.withUnsafeMutableBufferPointer { keys in
            spare.withUnsafeMutableBufferPointer { spare in
                for byte in 0..<8 where !counts[byte << 8 ..< (byte + 1) << 8].contains(keys.count) {
                    var offsets = [Int](repeating: 0, count: 256)
                    var total = 0
                    for bucket in 0..<256 {
                        offsets[bucket] = total
                        total += counts[byte << 8 | bucket]
                    }
                    let (source, target) = inSpare ? (spare, keys) : (keys, spare)
                    for key in source {
                        let bucket = Int(truncatingIfNeeded: key >> (byte << 3)) & 0xFF
                        target[offsets[bucket]] = key
                        offsets[bucket] += 1
                    }
                    inSpare.toggle()
                }
            }
        }
        return (inSpare ? spare : keys).map { key in
            Double(bitPattern: key & sign != 0 ? key & ~sign : ~key)
        }
    }
}
