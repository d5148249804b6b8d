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
