import CSQLite
import TallySupport

/// Bounds the run of one ad hoc statement: stopped once it has run `timeLimit`, or at once when
/// `cancel()` is called from another thread (the client left, the server is stopping).
///
/// While a statement runs, SQLite calls a progress handler every few thousand virtual-machine
/// steps; it checks the limit and the cancellation, so a runaway query (an endless recursive CTE,
/// a cross join of every table) ends with `StatementInterrupted` instead of holding its thread.
public final class StatementInterrupter: @unchecked Sendable {
    /// The longest a statement may run; nil for no limit.
    public let timeLimit: Duration?
    private let state = Locked(State())

    /// What `cancel()` and the progress handler share with the thread running the statement.
    private struct State {
        /// The connection whose statement runs now.
        var running: OpaquePointer?
        /// When the running statement must stop.
        var deadline: ContinuousClock.Instant?
        /// Why the statement stops (set once).
        var cause: StatementInterrupted.Cause?
    }

    /// Virtual-machine steps between two checks of the limit.
    static let checkInterval: Int32 = 1000

    /// An interrupter for statements that may run `timeLimit` each (nil: only `cancel()` stops them).
    public init(timeLimit: Duration?) {
        self.timeLimit = timeLimit
    }

    /// Stops the running statement now; one started later fails at once.
    public func cancel() {
        state.withLock { state in
            if state.cause == nil { state.cause = .cancelled }
            if let running = state.running { sqlite3_interrupt(running) }
        }
    }

    /// Runs `body` (which steps statements of `database`) under the limit; the clock starts now.
    ///
    /// - Throws: `StatementInterrupted` when the limit passed or `cancel()` was called, else what
    ///   `body` throws.
    public func run<T>(on database: Database, _ body: () throws -> T) throws -> T {
        let timeLimit = self.timeLimit
        try state.withLock { (state: inout State) throws(StatementInterrupted) in
            if let cause = state.cause { throw StatementInterrupted(cause: cause) }
            state.running = database.handle
            state.deadline = timeLimit.map { ContinuousClock.now.advanced(by: $0) }
        }
        sqlite3_progress_handler(database.handle, Self.checkInterval, { context in
            guard let context else { return 0 }
            return Unmanaged<StatementInterrupter>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
        defer {
            sqlite3_progress_handler(database.handle, 0, nil, nil)
            state.withLock { $0.running = nil }
        }
        do {
            return try body()
        } catch let error as DatabaseError where error.code == SQLITE_INTERRUPT {
            throw StatementInterrupted(cause: state.withLock { $0.cause } ?? .cancelled)
        }
    }

    /// Whether the running statement must stop; notes why.
    private func shouldStop() -> Bool {
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
}

/// An ad hoc statement was stopped before it finished.
public struct StatementInterrupted: Error, Sendable, CustomStringConvertible {
    /// Why it was stopped.
    public enum Cause: Sendable, Equatable {
        /// It ran longer than this limit.
        case timeLimit(Duration)
        /// Its caller gave up (the client disconnected, the server is stopping).
        case cancelled
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
        }
    }

    /// `limit` in seconds, without a trailing `.0`.
    public static func seconds(_ limit: Duration) -> String {
        let (seconds, attoseconds) = limit.components
        if attoseconds == 0 { return String(seconds) }
        return String(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
