/// One validated JSON value as `JSONScanner.scan(_:)` returns it.
public enum JSONDocument {
    /// An object, with its members recorded.
    case object(JSONObjectView)
    /// Any other value: array, string, number, boolean or null.
    case other(JSONValueView)

    /// The kind of the value.
    public var kind: JSONValueKind {
        switch self {
        case .object: .object
        case .other(let value): value.kind
        }
    }
}
