import NIOConcurrencyHelpers
import NIOPosix
import TallyQuery
import TallyRender
import TallyStore

/// Read-only connections to the store, each used by one thread at a time, on threads of
/// their own: queries never run on the event loops, and never wait for the writer (WAL).
final class ReaderPool: Sendable {
    private let path: String
    private let threads: NIOThreadPool
    private let idle = NIOLockedValueBox<[UncheckedReports]>([])

    /// A `Reports` handed from the pool to one thread at a time.
    private struct UncheckedReports: @unchecked Sendable {
        let reports: Reports
    }

    /// A pool over the store at `path` running work on `threads`.
    init(path: String, threads: NIOThreadPool) {
        self.path = path
        self.threads = threads
    }

    /// Runs `body` with a connection of its own on a worker thread.
    func withReports<T: Sendable>(_ body: @escaping @Sendable (Reports) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            let connection = try idle.withLockedValue { $0.popLast() } ?? UncheckedReports(reports: Reports(store: EventStore(readingAt: path)))
            defer { idle.withLockedValue { $0.append(connection) } }
            return try body(connection.reports)
        }
    }

    /// The JSON answer of `request`, exactly as `report … --format json` prints it.
    func answer(_ request: ReadRequest) async throws -> String {
        try await withReports { reports in
            try reports.answer(request.question, context: request.context, renderer: Renderer(color: false), format: .json)
        }
    }
}
