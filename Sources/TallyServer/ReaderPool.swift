import NIOConcurrencyHelpers
import NIOPosix
import TallyQuery
import TallyRender

/// Report layers of the store (SQLite: read-only connections), each used by one thread at a
/// time, on threads of their own: queries never run on the event loops, and never wait for the
/// writer.
final class ReaderPool: Sendable {
    private let open: @Sendable () throws -> any ReportBackend
    private let threads: NIOThreadPool
    private let idle = NIOLockedValueBox<[UncheckedReports]>([])

    /// A report layer handed from the pool to one thread at a time.
    private struct UncheckedReports: @unchecked Sendable {
        let reports: any ReportBackend
    }

    /// A pool of report layers made by `open`, running work on `threads`.
    init(threads: NIOThreadPool, open: @escaping @Sendable () throws -> any ReportBackend) {
        self.open = open
        self.threads = threads
    }

    /// Runs `body` with a report layer of its own on a worker thread.
    func withReports<T: Sendable>(_ body: @escaping @Sendable (any ReportBackend) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            let connection = try idle.withLockedValue { $0.popLast() } ?? UncheckedReports(reports: open())
            defer { idle.withLockedValue { $0.append(connection) } }
            return try body(connection.reports)
        }
    }

    /// The answer of `request` in `format`, exactly as `report … --format json` (or `csv`) prints it.
    func answer(_ request: ReadRequest, format: OutputFormat = .json) async throws -> String {
        try await withReports { reports in
            try reports.answer(request.question, context: request.context, renderer: Renderer(color: false), format: format)
        }
    }

    /// The rows of the saved query `name` (in the backend's dialect), without parameters.
    func saved(_ name: String) async throws -> GroupedReport {
        try await withReports { reports in
            try reports.adHoc(try reports.savedQuery(name), parameters: [:], interrupter: nil)
        }
    }
}
