import TallySupport

/// A clock that moves only when told to: for tests and simulations.
public final class ManualClock: TallyClock {
    private let current: Locked<Int64>

    /// A clock reading `startMs`.
    public init(startMs: Int64) {
        current = Locked(startMs)
    }

    /// The instant the clock was last set to.
    public func nowMs() -> Int64 {
        current.withLock { $0 }
    }

    /// Moves the clock forward by `ms` milliseconds (never backwards).
    public func advance(byMs ms: Int64) {
        precondition(ms >= 0, "a ManualClock only moves forward")
        current.withLock { $0 += ms }
    }

    /// Sets the clock to `ms`, which must not be earlier than the current reading.
    public func set(toMs ms: Int64) {
        current.withLock {
            precondition(ms >= $0, "a ManualClock only moves forward")
            $0 = ms
        }
    }
}
