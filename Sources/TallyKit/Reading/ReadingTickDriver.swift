import TallySupport

/// Calls ``ReadingTracker/tick()`` every second while started: the production timer of a
/// reading tracker. Tests and simulations call `tick()` themselves instead.
///
/// Heartbeats are stamped with the instant they fell due whatever the tick's delay, so the
/// period only bounds how late an event is enqueued.
public final class ReadingTickDriver: Sendable {
    private let tracker: ReadingTracker
    private let periodNanoseconds: UInt64
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A driver ticking `tracker` every `periodMs` milliseconds (1 s).
    public init(tracker: ReadingTracker, periodMs: UInt64 = 1_000) {
        self.tracker = tracker
        self.periodNanoseconds = periodMs * 1_000_000
    }

    /// Starts ticking; does nothing if already started.
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            task = Task { [tracker, periodNanoseconds] in
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: periodNanoseconds)
                    tracker.tick()
                }
            }
        }
    }

    /// Stops ticking.
    public func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}
