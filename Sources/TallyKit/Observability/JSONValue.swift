/// A JSON value of any type: what observability properties and a recommendation's business
/// payload hold.
///
/// Literals build it directly (`["view_name": "home", "load_duration_ms": 420, "cached": false]`),
/// and ``jsonText`` writes it as JSON.
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int64)
    /// A number with a fraction; a value that is not finite is written as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its members are written in ascending key order.
    case object([String: JSONValue])
}
