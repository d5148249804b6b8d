import Foundation
import TallyEvents
import TallyIngest
import TallySupport

/// Validates event files with the same code as the SQLite store (`RecordValidator`) and
/// streams the events to ClickHouse in batches of `RowBinary` rows; rejected lines never
/// reach the event tables, they go to `rejected_lines`. While one batch is being sent
/// (`ClickHouseBatchSender`, on a thread of its own), the next is read, validated and written.
///
/// Duplicates are counted at ingest: a key seen earlier in the batch, or found stored in its
/// family's table (probed first in a set of the stored keys' hashes: `ProbeSets`), is skipped, so
/// the first stored wins as in SQLite. A batch's tables are inserted at the same time, and a
/// batch is looked up only once the one before it is stored. A batch the network loses after the
/// server stored it is sent again unchanged: Replicated tables drop the identical block, and on a
/// single server the ingest then has the table merged (`OPTIMIZE … FINAL`), whose
/// ReplacingMergeTree engine collapses the identical rows, so the reports, which read without
/// `FINAL`, count them once. A send that fails part way may leave some of its events stored:
/// their keys are kept as uncertain, and when those events come again they are stored again and
/// their tables merged the same way. A run killed before a batch's inserts are acknowledged
/// leaves the batch marked in flight, which the next schema creation repairs (`InFlightBatch`).
public final class ClickHouseIngestor {
    /// Counts since this ingestor was created (read between ingests, not during one).
    public var counts: IngestCounts {
        IngestCounts(accepted: sender.accepted, duplicates: duplicatesInBatches + sender.duplicates, rejected: rejected)
    }
    /// How many rejected lines of each file read by `ingest(file:)` are kept with their message
    /// and first bytes (`RejectedLine.prefixBytes`); later ones keep their file, line, element and
    /// code only, as the SQLite `Ingestor`.
    public var rejectedLinesKeptInFull = 1000
    private var rawRejectionsLeft = Int.max
    private let sender: ClickHouseBatchSender
    private let batchSize: Int
    private var batch = ClickHouseBatch()
    private var duplicatesInBatches = 0
    private var rejected = 0
    /// The batch being sent in the background, and what became of it.
    private var inFlight: (done: DispatchGroup, outcome: Locked<Result<Void, any Error>>)?

    /// Creates an ingestor writing through `client`, sending every `batchSize` events.
    public init(client: ClickHouseClient, batchSize: Int = 100_000) {
        sender = ClickHouseBatchSender(client: client)
        self.batchSize = max(1, batchSize)
    }

    /// Reads one event file (or `-` for stdin) and stores its records; returns this file's counts.
    public func ingest(file path: String, onRejection: RejectionHandler,
                       onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void = { _, _ in }) throws -> IngestCounts {
        rawRejectionsLeft = rejectedLinesKeptInFull
        defer { rawRejectionsLeft = .max }
        return try ingest(try EventFileReader(path: path), onRejection: onRejection, onProgress: onProgress)
    }

    /// Reads every record of `reader` and stores them; returns the counts of this input once
    /// every batch is stored.
    public func ingest(_ reader: EventFileReader, onRejection: RejectionHandler,
                       onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void = { _, _ in }) throws -> IngestCounts {
        let before = counts
        var seen = 0
        var unread: RecordValidator.UnreadRemainder?
        do {
            try reader.forEachRecord { record in
                let remainder = try RecordValidator.validate(record) { piece, result in
                    let origin = RecordOrigin(file: reader.path, line: piece.line, element: piece.index)
                    switch result {
                    case .failure(let rejection):
                        keep(rejection, raw: piece.bytes, origin: origin)
                        onRejection(origin, rejection)
                    case .success(let event):
                        add(event)
                    }
                    if batchIsFull { try sendInBackground() }
                }
                if unread == nil { unread = remainder }
                seen += 1
                if seen % 8192 == 0 { onProgress(reader.bytesRead, reader.totalBytes) }
            }
        } catch let error as EventFileError {
            // The input is damaged part way (a truncated gzip): store the whole records before it.
            try flush()
            throw error
        } catch {
            // Nothing keeps running once the ingest has failed; the first failure is reported.
            try? waitForSend()
            throw error
        }
        try flush()
        onProgress(reader.bytesRead, reader.totalBytes)
        if let unread {
            throw EventFileError.unreadAfterDamage(file: reader.path, line: unread.line, bytes: unread.bytes)
        }
        let after = counts
        return IngestCounts(accepted: after.accepted - before.accepted, duplicates: after.duplicates - before.duplicates,
                            rejected: after.rejected - before.rejected)
    }

    /// Queues `event` for the next send; false (a duplicate, counted) when its key is already
    /// queued.
    @discardableResult
    func add(_ event: Event) -> Bool {
        guard batch.add(event) else {
            duplicatesInBatches += 1
            return false
        }
        return true
    }

    /// Whether the next send must go now to keep batches at `batchSize`.
    var batchIsFull: Bool { batch.count >= batchSize }

    /// Counts a rejected record and queues its line for `rejected_lines`.
    func keep(_ rejection: EventRejection, raw: UnsafeRawBufferPointer, origin: RecordOrigin) {
        rejected += 1
        let whole = rawRejectionsLeft > 0
        if whole { rawRejectionsLeft -= 1 }
        batch.rejectedRows.string(origin.file)
        batch.rejectedRows.int64(Int64(origin.line))
        batch.rejectedRows.int64(Int64(origin.element ?? -1))
        batch.rejectedRows.string(rejection.code.rawValue)
        batch.rejectedRows.nullableString(whole ? rejection.field : nil)
        batch.rejectedRows.string(whole ? rejection.message : "")
        batch.rejectedRows.nullableString(whole ? rejection.eventKey : nil)
        batch.rejectedRows.string(whole ? String(decoding: RejectedLine.prefix(of: raw), as: UTF8.self) : "")
    }

    /// Sends what is pending and returns once everything queued is stored.
    public func flush() throws {
        _ = try send()
    }

    /// Sends what is pending, after the batch in flight, and returns the pending keys that were
    /// already stored, per family (those events were skipped as duplicates; the others are now
    /// stored). After a failure nothing stays pending.
    func send() throws -> [EventFamily: Set<Bytewise<String>>] {
        let next = batch
        batch = ClickHouseBatch(roomFor: next)
        try waitForSend()
        return try sender.send(next)
    }

    /// Hands the pending batch to the sender and returns at once, after the batch before it
    /// is stored; throws that batch's failure.
    private func sendInBackground() throws {
        let next = batch
        batch = ClickHouseBatch(roomFor: next)
        try waitForSend()
        let done = DispatchGroup()
        let outcome = Locked<Result<Void, any Error>>(.success(()))
        let sender = self.sender
        done.enter()
        DispatchQueue.global().async {
            let result = Result { _ = try sender.send(next) }
            outcome.withLock { $0 = result }
            done.leave()
        }
        inFlight = (done, outcome)
    }

    /// Waits for the batch in flight, if any, and throws its failure.
    private func waitForSend() throws {
        guard let flight = inFlight else { return }
        inFlight = nil
        flight.done.wait()
        try flight.outcome.withLock { $0 }.get()
    }
}
