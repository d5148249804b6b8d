import Foundation
import TallyEvents

extension Ingestor {
    /// Records per chunk handed from the reading thread to the storing thread.
    static let chunkSize = 2048

    /// Reads one event file (or `-` for stdin) and stores its records; returns this file's counts.
    ///
    /// The file's batches commit with `synchronous = NORMAL` (each survives a kill of the
    /// process, not yet a power loss), and before this returns or throws the write-ahead log is
    /// synced once: whatever the caller reports as stored is durable, for the price of one
    /// `fsync` per file instead of one per batch. The connection is back to `FULL` afterwards.
    /// A power loss in the middle of a file can drop its latest batches, never part of one;
    /// ingesting the file again restores them (stored events come back as duplicates).
    ///
    /// One thread reads and validates while this one stores, so parsing and SQLite overlap.
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
        let producer = Thread { [reader = UncheckedSendable(reader)] in
            Self.readAndValidate(reader.value, into: queue)
            finished.signal()
        }
        producer.stackSize = 8 << 20
        producer.start()
        defer { finished.wait() }
        var unread: UnreadRemainder?
        do {
            loop: while true {
                switch queue.take() {
                case .chunk(let chunk):
                    try add(chunk) { entry, outcome in
                        if case .rejected(let rejection) = outcome {
                            onRejection(entry.origin, rejection)
                        }
                    }
                    if unread == nil { unread = chunk.unread }
                    onProgress(chunk.bytesRead, reader.totalBytes)
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
    private static func readAndValidate(_ reader: EventFileReader, into queue: ChunkQueue) {
        struct Stopped: Error {}
        var chunk = ValidatedChunk(capacity: chunkSize)
        do {
            try reader.forEachRecord { record in
                chunk.append(record, origin: RecordOrigin(file: reader.path, line: record.line, element: record.index))
                if chunk.entries.count >= chunkSize {
                    chunk.bytesRead = reader.bytesRead
                    chunk.sortKeys()
                    guard queue.put(.chunk(chunk)) else { throw Stopped() }
                    chunk = ValidatedChunk(capacity: chunkSize)
                }
            }
            chunk.bytesRead = reader.bytesRead
            chunk.sortKeys()
            if queue.put(.chunk(chunk)) {
                queue.put(.end)
            }
        } catch is Stopped {
            return
        } catch {
            chunk.bytesRead = reader.bytesRead
            if queue.put(.chunk(chunk)) {
                queue.put(.failure(error))
            }
        }
    }
}
