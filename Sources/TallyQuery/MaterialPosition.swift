/// Where a reader stood in a material: the `position` object as sent, and its progress.
public struct MaterialPosition: Sendable, Equatable {
    /// The `position` object exactly as sent (JSON text).
    public var json: String
    /// Progress in `0...1`, when known.
    public var progress: Double?

    /// Creates a position.
    public init(json: String, progress: Double?) {
        self.json = json
        self.progress = progress
    }
}
