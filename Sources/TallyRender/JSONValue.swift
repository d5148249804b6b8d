/// A JSON value whose objects keep their keys in the order given, so that answers read in the
/// order `metrics.md` defines their keys.
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// An integer, written as such.
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
}
