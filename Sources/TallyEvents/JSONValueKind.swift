/// The six kinds of JSON value (RFC 8259).
public enum JSONValueKind: UInt8, Sendable, CaseIterable {
    /// `{ ... }`
    case object
    /// `[ ... ]`
    case array
    /// `"..."`
    case string
    /// A number such as `-1.5e3`.
    case number
    /// `true` or `false`.
    case bool
    /// `null`.
    case null

    /// The kind with its article, for messages: `an object`, `a string`, `null`.
    public var phrase: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
