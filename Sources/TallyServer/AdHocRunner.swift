import NIOConcurrencyHelpers
import NIOPosix
import TallyQuery
import TallyRender
import TallySupport

/// Runs `/sql` statements on threads of their own, never on the threads that serve reports and
/// writes: each on a new read-only connection that is closed afterwards (nothing a statement
/// does outlives it), under a time limit, at most one per thread at a time. The answer streams:
/// rows are rendered as they are read and handed to the response a piece at a time
/// (`AnswerPieces`), at most `heldPieces` pieces held at once.
final class AdHocRunner: Sendable {
    /// Rows in one piece of an answer, at most.
    static let pieceRows = 1000
    /// The JSON bytes after which a piece is handed over (a piece holds at least one row).
    static let pieceBytes = 64 << 10
    /// Pieces one answer holds at once, queued or being written.
    static let heldPieces = 4

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

    /// Starts `sql` on a free thread under `interrupter` (its time and size limits, and its
    /// `cancel()` when the client goes away) and returns at once: the JSON rows, as
    /// `report sql --format json` prints them, come out of the pieces returned, which end with the
    /// statement's error if it failed (`StatementInterrupted` when a limit or `cancel()` stopped
    /// it; the backend's error for SQL it refuses or cannot run). `held` hears the bytes of the
    /// answer held grow and shrink; `finished` hears how the statement ended once its thread is free.
    ///
    /// - Throws: `Busy` when every thread is taken.
    func start(_ sql: String, interrupter: StatementInterrupter, held: @escaping @Sendable (Int) -> Void,
               finished: @escaping @Sendable ((any Error)?) -> Void) throws(Busy) -> AnswerPieces {
        let id = ObjectIdentifier(interrupter)
        let admitted = running.withLockedValue { running -> Bool in
            guard running.count < capacity else { return false }
            running[id] = interrupter
            return true
        }
        guard admitted else { throw Busy() }
        let pieces = AnswerPieces(capacity: Self.heldPieces, held: held)
        threads.submit { [open, running] state in
            var failure: (any Error)?
            do {
                guard state == .active else { throw StatementInterrupted(cause: .cancelled) }
                try Self.answer(sql, on: try open(), interrupter: interrupter, into: pieces)
            } catch {
                failure = error
            }
            _ = running.withLockedValue { $0.removeValue(forKey: id) }
            pieces.finish(failure)
            finished(failure)
        }
        return pieces
    }

    /// Runs `sql` on `backend`, putting its JSON into `pieces` `pieceRows` rows or `pieceBytes`
    /// bytes at a time; the last piece ends the document. A statement that fails puts no end.
    private static func answer(_ sql: String, on backend: any ReportBackend, interrupter: StatementInterrupter, into pieces: AnswerPieces) throws {
        var writer = JSONRowsWriter(columns: [])
        var piece = ""
        var rows = 0
        try backend.adHoc(sql, parameters: [:], interrupter: interrupter, columns: { writer = JSONRowsWriter(columns: $0) }) { row in
            writer.write(row, into: &piece)
            rows += 1
            guard rows == pieceRows || piece.utf8.count >= pieceBytes else { return }
            try pieces.put(piece, interrupter: interrupter)
            piece = ""
            rows = 0
        }
        writer.end(into: &piece)
        try pieces.put(piece, interrupter: interrupter)
    }

    /// Stops every running statement, then the threads.
    func close() async throws {
        for interrupter in running.withLockedValue({ Array($0.values) }) {
            interrupter.cancel()
        }
        try await threads.shutdownGracefully()
    }
}
