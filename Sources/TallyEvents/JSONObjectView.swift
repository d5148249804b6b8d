/// A validated JSON object: for each member, where its key and value lie in the scanned bytes.
///
/// Nothing is decoded up front; `self[key]` finds a member (the last one when a key repeats,
/// as Python's `json` does) and its `JSONValueView` decodes on demand. The view borrows the
/// scanned bytes: use it only while they stay alive and unchanged.
public struct JSONObjectView {
    /// The whole buffer that was scanned; all offsets refer to it.
    public let bytes: UnsafeRawBufferPointer
    /// Offsets of the object's text, braces included.
    public let byteRange: Range<Int>
    /// The members in input order, repeated keys included, and their index.
    let table: JSONMemberTable

    /// Scans an object whose `{` is at the cursor; leaves the cursor past its `}`. `depth` is the object's nesting depth.
    init(bytes: UnsafeRawBufferPointer, cursor: inout JSONCursor, depth: Int = 1) throws(JSONSyntaxError) {
        self.bytes = bytes
        let start = cursor.position
        cursor.position += 1
        var table = JSONMemberTable.make(capacity: 16)
        if try cursor.nextSignificant() != 0x7D { // }
            while true {
                let key = try cursor.scanKeyAndColon()
                let valueStart = cursor.position
                let (kind, flags) = try cursor.scanValue(try cursor.current(), depth: depth + 1)
                let member = JSONMember(
                    keyPrefix: JSONMember.prefix(cursor.base + key.start, count: key.length, readable: cursor.end - key.start),
                    keyStart: key.start, keyLength: key.length, valueStart: valueStart, valueEnd: cursor.position,
                    kind: kind, valueFlags: flags, keyEscaped: key.escaped)
                if !table.append(member, keysAt: cursor.base) {
                    table = table.grown()
                    _ = table.append(member, keysAt: cursor.base)
                }
                let next = try cursor.nextSignificant()
                if next == 0x2C { // ,
                    cursor.position += 1
                    cursor.skipWhitespace()
                } else if next == 0x7D {
                    break
                } else {
                    throw cursor.error(.unexpectedByte)
                }
            }
        }
        cursor.position += 1
        self.table = table
        byteRange = start..<cursor.position
    }

    /// The object's JSON text, exactly as it appears in the input.
    public var rawText: String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[byteRange]), as: UTF8.self)
    }

    /// The number of members, repeated keys counted each time.
    public var count: Int { table.count }

    /// Whether the object has a member named `key` (whatever its value, `null` included).
    public func contains(_ key: StaticString) -> Bool {
        memberIndex(key) != nil
    }

    /// The value of the member named `key` (the last one if the key repeats); `nil` when absent.
    public subscript(key: StaticString) -> JSONValueView? {
        guard let index = memberIndex(key) else { return nil }
        let member = table[index]
        return JSONValueView(bytes: bytes, kind: member.kind, flags: member.valueFlags,
                             range: member.valueStart..<member.valueEnd)
    }

    /// The index of the last member named `key`.
    @inline(__always)
    func memberIndex(_ key: StaticString) -> Int? {
        key.withUTF8Buffer { wanted -> Int? in
            let count = wanted.count
            let wantedBase = UnsafeRawPointer(wanted.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            let prefix = JSONMember.prefix(wantedBase, count: count, readable: count)
            let keys = bytes.baseAddress ?? wantedBase
            return table.lastIndex(bucket: JSONMemberTable.bucket(prefix: prefix, length: count)) { member in
                member.keyEscaped
                    ? decodedKey(member).utf8.elementsEqual(wanted)
                    : member.hasKey(wantedBase, count: count, prefix: prefix, keysAt: keys)
            }
        }
    }

    /// The key of a member whose raw key holds escapes, decoded.
    func decodedKey(_ member: JSONMember) -> String {
        JSONValueView(bytes: bytes, kind: .string, flags: .escaped,
                      range: member.keyStart - 1..<member.keyStart + member.keyLength + 1).string ?? ""
    }
}

// MARK: - Every member

extension JSONObjectView {
    /// Up to how many members `forEachMember` finds repeated keys by comparing every pair.
    static let pairwiseKeyLimit = 16

    /// Calls `body` with every member's decoded key and value, in input order; a repeated key
    /// (the same bytes) comes once, with its last value (as `self[key]` reads it).
    public func forEachMember(_ body: (String, JSONValueView) throws -> Void) rethrows {
        var keys: [String] = []
        keys.reserveCapacity(table.count)
        for index in 0..<table.count {
            let member = table[index]
            keys.append(member.keyEscaped
                ? decodedKey(member)
                : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[member.keyStart..<member.keyStart + member.keyLength]), as: UTF8.self))
        }
        // A small object (the most) compares its keys pairwise rather than hashing them.
        var lastIndex: [Bytewise<String>: Int] = [:]
        if keys.count > Self.pairwiseKeyLimit {
            for (index, key) in keys.enumerated() { lastIndex[Bytewise(key)] = index }
        }
        func isLast(_ index: Int) -> Bool {
            guard keys.count > Self.pairwiseKeyLimit else {
                return !keys[(index + 1)...].contains { $0.hasSameBytes(as: keys[index]) }
            }
            return lastIndex[Bytewise(keys[index])] == index
        }
        for index in 0..<table.count where isLast(index) {
            let member = table[index]
            try body(keys[index], JSONValueView(bytes: bytes, kind: member.kind, flags: member.valueFlags,
                                                range: member.valueStart..<member.valueEnd))
        }
    }
}

// MARK: - Other members

extension JSONObjectView {
    /// The members whose key is not in `known`, copied verbatim into the text of one JSON
    /// object, in input order; nil when every member's key is known.
    public func otherMembersText(known: JSONKeySet) -> String? {
        var text: [UInt8] = []
        for index in 0..<table.count {
            let member = table[index]
            let isKnown = member.keyEscaped
                ? known.contains(decodedKey(member))
                : known.contains(bytes.baseAddress! + member.keyStart, count: member.keyLength)
            if isKnown { continue }
            text.append(text.isEmpty ? 0x7B : 0x2C) // { or ,
            text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(member.keyStart - 1)..<member.valueEnd]))
        }
        guard !text.isEmpty else { return nil }
        text.append(0x7D) // }
        return String(decoding: text, as: UTF8.self)
    }
}
