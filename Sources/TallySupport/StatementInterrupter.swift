/// Bounds the run of one ad hoc statement, whichever backend runs it: stopped once it has run
/// `timeLimit`, or at once when `cancel()` is called from another thread (the client left, the
/// server is stopping); its values and result are bounded by `limits`.
///
/// A backend adapts it to its own way of stopping a statement: SQLite checks `shouldStop()` from
/// its progress handler and is interrupted through the hook it gives `begin(interrupt:)`
/// (`StatementInterrupter.run(on:_:)` in TallySQLite); ClickHouse sends `timeLimit` as the
/// server's `max_execution_time`.
public final class StatementInterrupter: Sendable {
    /// The longest a statement may run; nil for no limit.
    public let timeLimit: Duration?
    /// How large its values and result may grow.
    public let limits: AdHocLimits
    private let state = Locked(State())

    /// What `cancel()` shares with the thread running the statement.
    private struct State {
        /// Stops the running statement; nil while none runs.
        var interrupt: (@Sendable () -> Void)?
        /// When the running statement must stop.
        var deadline: ContinuousClock.Instant?
        /// Why the statement stops (set once).
        var cause: StatementInterrupted.Cause?
    }

    /// An interrupter for statements that may run `timeLimit` each (nil: only `cancel()` stops
    /// them) and grow as far as `limits`.
    public init(timeLimit: Duration?, limits: AdHocLimits = AdHocLimits()) {
        self.timeLimit = timeLimit
        self.limits = limits
    }

    /// Stops the running statement now; one started later fails at once.
    public func cancel() {
        state.withLock { state in
            if state.cause == nil { state.cause = .cancelled }
            state.interrupt?()
        }
    }

    /// Starts a statement: its clock starts now, and `cancel()` calls `interrupt` until `end()`.
    ///
    /// - Throws: `StatementInterrupted` when `cancel()` was already called.
    public func begin(interrupt: @escaping @Sendable () -> Void) throws(StatementInterrupted) {
        let timeLimit = self.timeLimit
        try state.withLock { (state: inout State) throws(StatementInterrupted) in
            if let cause = state.cause { throw StatementInterrupted(cause: cause) }
            state.interrupt = interrupt
            state.deadline = timeLimit.map { ContinuousClock.now.advanced(by: $0) }
        }
    }

    /// Ends the running statement: `cancel()` no longer reaches it.
    public func end() {
        state.withLock { $0.interrupt = nil }
    }

    /// Whether the running statement must stop (its time is up, or it was cancelled); notes why.
    public func shouldStop() -> Bool {
        let timeLimit = self.timeLimit
        return state.withLock { state in
            if state.cause != nil { return true }
            if let deadline = state.deadline, let timeLimit, ContinuousClock.now >= deadline {
                state.cause = .timeLimit(timeLimit)
                return true
            }
            return false
        }
    }

    /// Why the statement was stopped; nil while nothing stopped it.
    public var cause: StatementInterrupted.Cause? {
        state.withLock { $0.cause }
    }
}

/// An ad hoc statement was stopped before it finished.
public struct StatementInterrupted: Error, Sendable, CustomStringConvertible {
    /// Why it was stopped.
    public enum Cause: Sendable, Equatable {
        /// It ran longer than this limit.
        case timeLimit(Duration)
        /// Its caller gave up (the client disconnected, the server is stopping).
        case cancelled
        /// A value, or the result in all, came to more than this many bytes (`--sql-max-bytes`).
        case bytes(Int)
        /// The result came to more than this many rows (`--sql-max-rows`).
        case rows(Int)
    }

    /// Why it was stopped.
    public var cause: Cause

    /// Creates the error.
    public init(cause: Cause) {
        self.cause = cause
    }

    /// One sentence for people, naming the limit.
    public var description: String {
        switch cause {
        case .timeLimit(let limit): "The statement ran longer than the \(Self.seconds(limit)) s limit (--sql-timeout) and was stopped."
        case .cancelled: "The statement was stopped before it finished (the request was cancelled)."
        case .bytes(let limit): "A value or the result came to more than the \(limit)-byte limit (--sql-max-bytes); the statement was stopped."
        case .rows(let limit): "The result came to more than the \(limit)-row limit (--sql-max-rows); the statement was stopped."
        }
    }

    /// `limit` in seconds, without a trailing `.0`.
    public static func seconds(_ limit: Duration) -> String {
        let (seconds, attoseconds) = limit.components
        if attoseconds == 0 { return String(seconds) }
        return String(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
