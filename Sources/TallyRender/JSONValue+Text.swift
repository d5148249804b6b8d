import TallyEvents

extension JSONValue {
    /// The JSON text, laid out for people and diffs: the top-level object one member a line,
    /// an array of objects or arrays one element a line (up to the second level), anything
    /// deeper on one line. No trailing newline.
    public var text: String {
        var out = ""
        write(into: &out, depth: 0)
        return out
    }

    /// Appends the text of the value as it is laid out at `depth` (0 for a whole document).
    func write(into out: inout String, depth: Int) {
        switch self {
        case .null:
            out += "null"
        case .bool(let value):
            out += value ? "true" : "false"
        case .int(let value):
            out += String(value)
        case .double(let value):
            out += JSONText.number(value)
        case .string(let value):
            out += JSONText.quote(value)
        case .verbatim(let text):
            out += text
        case .array(let elements):
            let expanded = depth < 2 && elements.contains(where: \.isContainer)
            writeContainer(elements, open: "[", close: "]", expanded: expanded, into: &out, depth: depth) { element, out in
                element.write(into: &out, depth: depth + 1)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", expanded: depth == 0, into: &out, depth: depth) { member, out in
                out += JSONText.quote(member.key)
                out += ": "
                member.value.write(into: &out, depth: depth + 1)
            }
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    private func writeContainer<Element>(_ elements: [Element], open: String, close: String, expanded: Bool,
                                         into out: inout String, depth: Int,
                                         element write: (Element, inout String) -> Void) {
        guard expanded, !elements.isEmpty else {
            out += open
            for (index, element) in elements.enumerated() {
                if index > 0 { out += ", " }
                write(element, &out)
            }
            out += close
            return
        }
        let indent = String(repeating: "  ", count: depth + 1)
        out += open + "\n"
        for (index, element) in elements.enumerated() {
            out += indent
            write(element, &out)
            out += index == elements.count - 1 ? "\n" : ",\n"
        }
        out += String(repeating: "  ", count: depth) + close
    }
}
