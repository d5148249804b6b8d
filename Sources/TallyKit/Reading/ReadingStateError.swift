/// A reading-session state file that could not be read or written.
public struct ReadingStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file concerned.
    public var path: String
    /// What went wrong with it.
    public var reason: String

    /// An error about `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// One sentence naming the file.
    public var description: String { "\(path) \(reason)" }
}
