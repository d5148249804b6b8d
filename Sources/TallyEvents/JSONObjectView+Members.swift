extension JSONObjectView {
    /// Calls `body` with every member's decoded key and value, in input order; a repeated key
    /// comes once, with its last value (as `self[key]` reads it).
    public func forEachMember(_ body: (String, JSONValueView) throws -> Void) rethrows {
        var lastIndex: [String: Int] = [:]
        var keys: [String] = []
        keys.reserveCapacity(table.count)
        for index in 0..<table.count {
            let member = table[index]
            let key = member.keyEscaped
                ? decodedKey(member)
                : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[member.keyStart..<member.keyStart + member.keyLength]), as: UTF8.self)
            keys.append(key)
            lastIndex[key] = index
        }
        for index in 0..<table.count where lastIndex[keys[index]] == index {
            let member = table[index]
            try body(keys[index], JSONValueView(bytes: bytes, kind: member.kind, flags: member.valueFlags,
                                                range: member.valueStart..<member.valueEnd))
        }
    }
}
