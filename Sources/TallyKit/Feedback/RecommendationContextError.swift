/// A ``RecommendationContext`` field that the wire format would reject.
public struct RecommendationContextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field at fault (`impressionId`, `modelInfo`, `feedPosition`).
    public var field: String
    /// One sentence saying what is wrong.
    public var message: String

    /// An error about `field`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
