import TallyEvents

extension JSONValue {
    /// The JSON text, laid out for people and diffs: the top-level object one member a line,
    /// an array of objects or arrays one element a line (up to the second level), anything
    /// deeper on one line. No trailing newline.
    public var text: String {
        var out = ""
        write(into: &out, depth: 0, layout: .readable)
        return out
    }

    /// The JSON text on one line, compact (no space after `,` or `:`), object members in their
    /// order: one line of NDJSON. A verbatim document's CR and LF become spaces (JSON strings
    /// cannot hold a raw one, so they are whitespace between its tokens), and U+2028 and U+2029
    /// (raw only inside strings) are written `\u2028` and `\u2029`, since some line readers end a
    /// line at them. No trailing newline.
    public var line: String {
        var out = ""
        write(into: &out, depth: 0, layout: .line)
        guard out.unicodeScalars.contains(where: { [0x0A, 0x0D, 0x2028, 0x2029].contains($0.value) }) else { return out }
        var scalars = String.UnicodeScalarView()
        for scalar in out.unicodeScalars {
            switch scalar {
            case "\n", "\r": scalars.append(" ")
            case "\u{2028}": scalars.append(contentsOf: "\\u2028".unicodeScalars)
            case "\u{2029}": scalars.append(contentsOf: "\\u2029".unicodeScalars)
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `objects` one a line, each line ending with a newline: NDJSON.
    static func lines(_ objects: [JSONValue]) -> String {
        objects.map { $0.line + "\n" }.joined()
    }

    /// How ``text`` and ``line`` lay a value out.
    private struct Layout {
        /// Whether containers near the top are written one element a line.
        var expands: Bool
        /// What follows a comma between elements.
        var comma: String
        /// What follows the colon of a member.
        var colon: String

        static let readable = Layout(expands: true, comma: ", ", colon: ": ")
        static let line = Layout(expands: false, comma: ",", colon: ":")
    }

    private func write(into out: inout String, depth: Int, layout: Layout) {
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
            let expanded = layout.expands && depth < 2 && elements.contains(where: \.isContainer)
            writeContainer(elements, open: "[", close: "]", expanded: expanded, into: &out, depth: depth, layout: layout) { element, out in
                element.write(into: &out, depth: depth + 1, layout: layout)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", expanded: layout.expands && depth == 0, into: &out, depth: depth,
                           layout: layout) { member, out in
                out += JSONText.quote(member.key)
                out += layout.colon
                member.value.write(into: &out, depth: depth + 1, layout: layout)
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
                                         into out: inout String, depth: Int, layout: Layout,
                                         element write: (Element, inout String) -> Void) {
        guard expanded, !elements.isEmpty else {
            out += open
            for (index, element) in elements.enumerated() {
                if index > 0 { out += layout.comma }
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
