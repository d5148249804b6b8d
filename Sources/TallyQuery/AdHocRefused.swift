/// An ad hoc statement a backend refused to run (a write, a table function, a setting):
/// `reason` says what is not allowed.
public struct AdHocRefused: Error, Sendable, CustomStringConvertible {
    /// What is not allowed, one clause.
    public var reason: String

    /// A refusal for `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    /// One sentence for people.
    public var description: String { "Refused: \(reason)." }
}
