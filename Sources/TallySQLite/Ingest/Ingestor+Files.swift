import Foundation
import TallyEvents
import TallyIngest

extension Ingestor {
    /// Records per chunk handed from the reading thread to the storing thread.
    static let chunkSize = 2048

    /// Reads one event file (or `-` for stdin) and stores its records; returns this file's counts.
    ///
    /// Each batch of `batchSize` records writes its rollups; the batches commit together once
    /// `recordsPerCommit` records are in (and at the end), so that a commit writes each page of
    /// the key-ordered structures (`event_keys` above all, where random keys touch every page)
    /// once for many batches: what a commit costs then follows its own records, not the size
    /// of the store. Commits use `synchronous = NORMAL` (each survives a kill of the process,
    /// not yet a power loss), and before this returns or throws the write-ahead log is synced
    /// once: whatever the caller reports as stored is durable, for the price of one `fsync`
    /// per file instead of one per commit. The connection is back to `FULL` afterwards. A kill
    /// in the middle of a file drops the records since its last commit, a power loss its latest
    /// commits, never part of one; ingesting the file again restores them (stored events come
    /// back as duplicates).
    ///
    /// One thread reads and validates while this one stores, so parsing and SQLite overlap:
    /// the reading thread also adds up each batch's rollups as if every event were new, and
    /// this one claims the keys, writes the rows and the rollups (or, when some event of the
    /// batch was stored already, adds up the batch's rollups itself).
    /// `onRejection` hears about every rejected record in input order; `onProgress` gets the
    /// bytes read so far and the file's size when known. The first `rejectedLinesKeptInFull`
    /// rejected lines of the file are kept whole, later ones by code and position only.
    ///
    /// - Throws: `EventFileError` when the file cannot be read to its end (a truncated or
    ///   corrupt gzip, a read error): every record read before the damage is stored first; and,
    ///   once the whole file is stored, when a damaged batch element ran on too far to be
    ///   searched again for the events after the damage (`unreadAfterDamage`).
    public func ingest(file path: String, onRejection: RejectionHandler,
                       onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void = { _, _ in }) throws -> IngestCounts {
        let reader = try EventFileReader(path: path)
        try database.setSynchronous(.normal)
        let stored = Result { try ingest(reader, onRejection: onRejection, onProgress: onProgress) }
        let synced = Result {
            try database.setSynchronous(.full)
            try database.syncWriteAheadLog()
        }
        // The file's own error first (a truncated gzip, say); a failed sync fails a stored file.
        let counts = try stored.get()
        try synced.get()
        return counts
    }

    /// Stores the records of `reader` in batches (see `ingest(file:onRejection:onProgress:)`).
    private func ingest(_ reader: EventFileReader, onRejection: RejectionHandler,
                        onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void) throws -> IngestCounts {
        let before = counts
        rawRejectionsLeft = rejectedLinesKeptInFull
        defer { rawRejectionsLeft = .max }
        let queue = ChunkQueue(capacity: 4)
        let finished = DispatchSemaphore(value: 0)
        let producer = Thread { [reader = UncheckedSendable(reader), batchSize] in
            Self.readAndValidate(reader.value, batchSize: batchSize, into: queue)
            finished.signal()
        }
        producer.stackSize = 8 << 20
        producer.start()
        defer { finished.wait() }
        var unread: RecordValidator.UnreadRemainder?
        var uncommitted = 0
        do {
            loop: while true {
                switch queue.take() {
                case .chunk(let chunk):
                    try store(chunk) { entry, outcome in
                        if case .rejected(let rejection) = outcome {
                            onRejection(entry.origin, rejection)
                        }
                    }
                    if unread == nil { unread = chunk.unread }
                    uncommitted += chunk.entries.count
                    onProgress(chunk.bytesRead, reader.totalBytes)
                case .rollups(let rollups):
                    if uncommitted >= recordsPerCommit {
                        try commit(rollupsAhead: rollups)
                        uncommitted = 0
                    } else {
                        try writeBatch(rollupsAhead: rollups)
                    }
                case .failure(let error):
                    // The records read before the damage are whole: keep them.
                    try commit()
                    throw error
                case .end:
                    break loop
                }
            }
            try commit()
        } catch {
            queue.cancel()
            rollback()
            throw error
        }
        if let unread {
            throw EventFileError.unreadAfterDamage(file: reader.path, line: unread.line, bytes: unread.bytes)
        }
        return IngestCounts(accepted: counts.accepted - before.accepted, duplicates: counts.duplicates - before.duplicates,
                            rejected: counts.rejected - before.rejected)
    }

    /// The reading thread: records → validated chunks → `queue`, then `.end` or `.failure`.
    /// After the chunk that brings a batch to `batchSize` records or more, and after the last,
    /// comes `.rollups` with the rollups of the batch's events (every valid one taken as new):
    /// the storing thread commits there. A chunk holds no more than a batch, so that batches
    /// end where they would if the records were stored one by one.
    private static func readAndValidate(_ reader: EventFileReader, batchSize: Int, into queue: ChunkQueue) {
        struct Stopped: Error {}
        let chunkLimit = min(chunkSize, batchSize)
        var chunk = ValidatedChunk(capacity: chunkLimit)
        var rollups = RollupBatch()
        var records = 0
        /// Hands over `chunk` and adds its rollups; false when the storing thread gave up.
        func hand(closingBatch: Bool) -> Bool {
            chunk.bytesRead = reader.bytesRead
            chunk.sortKeys()
            guard queue.put(.chunk(chunk)) else { return false }
            rollups.add(chunk)
            records += chunk.entries.count
            chunk = ValidatedChunk(capacity: chunkLimit)
            guard closingBatch || records >= batchSize else { return true }
            defer { rollups = RollupBatch(sizedLike: rollups); records = 0 }
            rollups.planExposures()
            return queue.put(.rollups(rollups))
        }
        do {
            try reader.forEachRecord { record in
                chunk.append(record, origin: RecordOrigin(file: reader.path, line: record.line, element: record.index))
                if chunk.entries.count >= chunkLimit {
                    guard hand(closingBatch: false) else { throw Stopped() }
                }
            }
            if hand(closingBatch: true) {
                queue.put(.end)
            }
        } catch is Stopped {
            return
        } catch {
            if hand(closingBatch: true) {
                queue.put(.failure(error))
            }
        }
    }
}

// MARK: - Handing the reader to its thread

/// Hands a value that is not `Sendable` to exactly one other thread, which then owns it.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
