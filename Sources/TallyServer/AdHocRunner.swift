import NIOConcurrencyHelpers
import NIOPosix
import TallyQuery
import TallyRender
import TallySupport

/// Runs `/sql` statements on threads of their own, never on the threads that serve reports and
/// writes: each on a new read-only connection that is closed afterwards (nothing a statement
/// does outlives it), under a time limit, at most one per thread at a time.
final class AdHocRunner: Sendable {
    private let threads: NIOThreadPool
    private let capacity: Int
    private let open: @Sendable () throws -> any ReportBackend
    private let running = NIOLockedValueBox<[ObjectIdentifier: StatementInterrupter]>([:])

    /// All `/sql` threads are busy: the request is refused rather than queued (503).
    struct Busy: Error {}

    /// `threads` threads running statements over layers made by `open`.
    init(threads: Int, open: @escaping @Sendable () throws -> any ReportBackend) {
        self.threads = NIOThreadPool(numberOfThreads: max(1, threads))
        self.capacity = max(1, threads)
        self.open = open
        self.threads.start()
    }

    /// The JSON rows of `sql`, as `report sql --format json` prints them, run and rendered under
    /// `interrupter` (its time and size limits, and its `cancel()` when the client goes away).
    ///
    /// - Throws: `Busy` when every thread is taken; `StatementInterrupted` when the time limit
    ///   passed or the statement was cancelled; the backend's error for SQL it refuses or cannot run.
    func json(_ sql: String, interrupter: StatementInterrupter) async throws -> String {
        let id = ObjectIdentifier(interrupter)
        let admitted = running.withLockedValue { running -> Bool in
            guard running.count < capacity else { return false }
            running[id] = interrupter
            return true
        }
        guard admitted else { throw Busy() }
        defer { running.withLockedValue { $0[id] = nil } }
        return try await withTaskCancellationHandler {
            try await threads.runIfActive { [open] in
                let report = try open().adHoc(sql, parameters: [:], interrupter: interrupter)
                // Rendering counts against the time limit and stops when the client leaves.
                return try Renderer(color: false).renderJSON(report) {
                    if interrupter.shouldStop() { throw StatementInterrupted(cause: interrupter.cause ?? .cancelled) }
                }
            }
        } onCancel: {
            interrupter.cancel()
        }
    }

    /// Stops every running statement, then the threads.
    func close() async throws {
        for interrupter in running.withLockedValue({ Array($0.values) }) {
            interrupter.cancel()
        }
        try await threads.shutdownGracefully()
    }
}
