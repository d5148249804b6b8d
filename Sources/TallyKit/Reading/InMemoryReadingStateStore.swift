import TallySupport

/// A ``ReadingStateStore`` in memory: for tests and simulations, where a "relaunch" is a new
/// tracker on the same store.
public final class InMemoryReadingStateStore: ReadingStateStore {
    private let record = Locked<ReadingSessionRecord?>(nil)

    /// An empty store.
    public init() {}

    /// The saved record.
    public func load() -> ReadingSessionRecord? {
        record.withLock { $0 }
    }

    /// Replaces the saved record.
    public func save(_ record: ReadingSessionRecord?) {
        self.record.withLock { $0 = record }
    }
}
