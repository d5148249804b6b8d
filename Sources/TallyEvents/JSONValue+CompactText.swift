extension JSONValue {
    /// The value as compact JSON text: object members in ascending key order (so equal values
    /// give equal text), non-finite doubles as `null`, strings escaped per RFC 8259.
    public var jsonText: String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `members` as the text of one JSON object, keys ascending.
    public static func objectText(_ members: [String: JSONValue]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(16 + members.count * 32)
        writeObject(members, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value's UTF-8 JSON text to `out`.
    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .int(let value): Self.writeInteger(value, to: &out)
        case .double(let value): out.append(contentsOf: JSONText.number(value).utf8)
        case .string(let value): Self.writeString(value, to: &out)
        case .verbatim(let text): out.append(contentsOf: text.utf8)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            Self.writeObject(members, to: &out)
        }
    }

    /// Appends `members` as a JSON object, keys ascending, to `out`.
    static func writeObject(_ members: [String: JSONValue], to out: inout [UInt8]) {
        writeObject(members.map { (key: $0.key, value: $0.value) }, to: &out)
    }

    /// Appends `members` as a JSON object, keys ascending (members of one key in their order), to `out`.
    static func writeObject(_ members: [(key: String, value: JSONValue)], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writeString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            value.write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `value` in decimal to `out`.
    static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    /// Appends `value` as a JSON string literal to `out`; text needing no escapes is copied whole.
    static func writeString(_ value: String, to out: inout [UInt8]) {
        let plain = value.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        if plain {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: value.utf8)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: JSONText.quote(value).utf8)
        }
    }
}
