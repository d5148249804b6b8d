/// The saved state of the open reading session: what a relaunch needs to close a session the
/// app was killed in, with the active time it really had and the next sequence number.
public struct ReadingSessionRecord: Sendable, Equatable, Codable {
    /// The session's `clientSessionId`.
    public var sessionId: String
    /// The material read.
    public var material: ReadingMaterial
    /// The `sequence` the session's next event takes (events so far took `1..<nextSequence`).
    public var nextSequence: Int64
    /// The last instant the tracker accounted for: active time up to here is in
    /// ``unsentActiveMs`` or already sent.
    public var accountedToMs: Int64
    /// Active reading time up to ``accountedToMs`` that no event has carried yet.
    public var unsentActiveMs: Int64
    /// Whether the reader had paused the session.
    public var paused: Bool
    /// When the app went to the background, if it was there.
    public var backgroundSinceMs: Int64?
    /// The latest position known, sent or not.
    public var position: ReadingPosition?

    /// A record of the given fields.
    public init(sessionId: String, material: ReadingMaterial, nextSequence: Int64, accountedToMs: Int64,
                unsentActiveMs: Int64, paused: Bool, backgroundSinceMs: Int64?, position: ReadingPosition?) {
        self.sessionId = sessionId
        self.material = material
        self.nextSequence = nextSequence
        self.accountedToMs = accountedToMs
        self.unsentActiveMs = unsentActiveMs
        self.paused = paused
        self.backgroundSinceMs = backgroundSinceMs
        self.position = position
    }

    /// The instant a session found at launch is closed at: when the app left the foreground,
    /// if it had; else the last instant accounted for.
    public var lastActivityMs: Int64 {
        backgroundSinceMs ?? accountedToMs
    }
}
