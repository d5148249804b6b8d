/// A send that got no answer; always retried.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened, in a sentence.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
