import Foundation
import TallyIngest
import TallySQLite

/// The store's one writer: a thread of its own that stores validated request bodies in
/// arrival order. Bodies that arrive while a commit is under way are stored together and
/// committed once (group commit), and each request is answered only after its commit: an
/// accepted event is durable.
final class StoreWriter: @unchecked Sendable {
    /// What happened to each record of one body.
    typealias Outcomes = [(entry: ValidatedChunk.Entry, outcome: IngestOutcome)]

    private struct Job {
        var chunk: ValidatedChunk
        var done: (Result<Outcomes, any Error>) -> Void
    }

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the thread that stores through `ingestor`; `stored` runs after each group was
    /// stored (or failed part way), before any of its requests is answered.
    init(ingestor: any EventIngesting, stored: @escaping @Sendable () -> Void) {
        let ingestor = UncheckedIngestor(ingestor: ingestor)
        let thread = Thread { [self] in
            run(ingestor.ingestor, stored: stored)
            finished.signal()
        }
        thread.name = "tally-writer"
        thread.start()
    }

    private struct UncheckedIngestor: @unchecked Sendable {
        let ingestor: any EventIngesting
    }

    /// Stores `chunk` and answers once it is committed.
    ///
    /// - Throws: `StoreWriter.Stopped` after `stop()`; the store's error when the commit fails
    ///   (nothing of the group it was in is then answered as accepted).
    func store(_ chunk: ValidatedChunk) async throws -> Outcomes {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            guard !stopping else {
                continuation.resume(throwing: Stopped())
                return
            }
            jobs.append(Job(chunk: chunk, done: { continuation.resume(with: $0) }))
            condition.signal()
        }
    }

    /// Stores what is queued, then ends the thread; later `store` calls throw `Stopped`.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        finished.wait()
    }

    /// The writer has stopped: the server is shutting down.
    struct Stopped: Error {}

    private func run(_ ingestor: any EventIngesting, stored: @Sendable () -> Void) {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping {
                condition.wait()
            }
            let group = jobs
            jobs.removeAll()
            condition.unlock()
            if group.isEmpty { return }
            let result = Result { try ingestor.store(group: group.map(\.chunk)) }
            stored()
            switch result {
            case .success(let outcomes):
                for (job, chunkOutcomes) in zip(group, outcomes) {
                    job.done(.success(zip(job.chunk.entries, chunkOutcomes).map { (entry: $0, outcome: $1) }))
                }
            case .failure(let error):
                for job in group {
                    job.done(.failure(error))
                }
            }
        }
    }
}
