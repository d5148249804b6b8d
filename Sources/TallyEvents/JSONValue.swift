/// A JSON value, the one type every module writes JSON through: the app SDK's observability
/// properties and recommendation payloads, and the reports' answers.
///
/// An object keeps its members in the order given, so that answers read in the order
/// `metrics.md` defines their keys; a dictionary literal orders its keys ascending. Two writers:
/// ``jsonText`` (compact, keys ascending, so equal values give equal text: what the SDK sends)
/// and TallyRender's `text` (laid out for people, members in their order).
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number, written as such.
    case int(Int64)
    /// A floating-point number, written in its shortest round-trip form (`JSONText.number`);
    /// `null` when not finite.
    case double(Double)
    /// A string, escaped per RFC 8259 (`JSONText.quote`); non-ASCII text stays UTF-8.
    case string(String)
    /// JSON text written as is: a document kept verbatim, such as a reading `position`.
    case verbatim(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in this order.
    case object([(key: String, value: JSONValue)])

    /// An object of `members`, keys ascending.
    public static func object(sorting members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    /// Equal kinds with equal contents; object members compare in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.verbatim(let a), .verbatim(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A Boolean literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal.
    public init(integerLiteral value: Int64) {
        self = .int(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A floating-point literal.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal: keys ascending; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(sorting: Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
