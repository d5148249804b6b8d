import Foundation
import TallyEvents
import TallySupport

/// The durable upload queue every kit enqueues into: one per app, shared by all families.
///
/// **On the caller's thread** `enqueue` encodes the event to its wire JSON, frames it
/// (length, CRC-32) and copies the frame into the memory-mapped active segment under a short
/// lock: no system call, no disk I/O. Mapped pages belong to the kernel's page cache, so a
/// `kill -9` right after `enqueue` returns loses nothing.
///
/// **A background writer** `msync`s and `fsync`s in groups (whenever someone awaits
/// ``waitUntilDurable(_:)``, when a segment fills, and every `commitIntervalMs`), which makes
/// records survive a power loss, prepares the next segment, and drops the oldest events when
/// the queue exceeds `maxBytes` (counted in ``QueueCounters/droppedOldest``).
///
/// **The uploader** forms batches (``formBatches(maxEvents:nowMs:maxOpenBatches:)``): their
/// events are copied to a synced batch file and the journal records them before anything is
/// sent, so every retry sends the same bytes; an answered batch leaves the journal before its
/// file is deleted, so it is never sent again.
///
/// **At open** the segments are scanned, every frame's CRC checked; a record that cannot be
/// read is copied to `quarantine/` and counted, never a stall.
///
/// Files: `segments/segment-N.tly`, `batches/batch-N.ndjson` (NDJSON, ready for `report ingest`),
/// `quarantine/`, `journal.json`. Call ``close()`` to stop the writer (it syncs first).
public final class DurableQueue: EventSink, @unchecked Sendable {
    /// The queue's folder.
    public let directory: String
    /// Its size limits.
    public let configuration: QueueConfiguration
    let segmentsDirectory: String
    let batchesDirectory: String
    let quarantineDirectory: String
    let journalPath: String
    let appendState: Locked<AppendState>
    let index: Locked<IndexState>
    let durability = Locked(DurabilityState())
    let signal = WriterSignal()
    /// The next spare segment, prepared by the writer; `spareCreation` serializes making one.
    let spare = Locked<MappedSegment?>(nil)
    let spareCreation = NSLock()
    /// The number the next segment created gets.
    let nextSegmentId: Locked<UInt64>
    /// How far the active segment is synced; held while committing.
    let commitProgress = Locked(CommitProgress())
    /// Called by the writer after each commit with the number of events waiting for a batch.
    let commitObserver = Locked<(@Sendable (Int) -> Void)?>(nil)

    init(directory: String, configuration: QueueConfiguration, active: MappedSegment, journal: QueueJournal,
         sealedBytes: [UInt64: Int], pendingRecords: UInt64, batchBytes: [UInt64: Int64]) {
        self.directory = directory
        self.configuration = configuration
        segmentsDirectory = directory + "/segments"
        batchesDirectory = directory + "/batches"
        quarantineDirectory = directory + "/quarantine"
        journalPath = directory + "/journal.json"
        var append = AppendState(active: active)
        append.sealedBytes = sealedBytes
        append.appendedRecords = pendingRecords
        appendState = Locked(append)
        index = Locked(IndexState(journal: journal, batchBytes: batchBytes))
        nextSegmentId = Locked(active.id + 1)
    }

    // MARK: EventSink

    /// Encodes `event` and copies it into the active segment; a few microseconds, no disk I/O
    /// (except, rarely, creating a segment when the writer has not prepared one in time).
    ///
    /// An event whose encoding exceeds a quarter of a segment is not queued: it is counted in
    /// ``QueueCounters/droppedOversize`` and its receipt resolves at once.
    @discardableResult
    public func enqueue(_ event: Event) -> EnqueueReceipt {
        let frame = RecordFrame.frame(event)
        return frame.withUnsafeBytes { append($0) }
    }

    /// Copies one complete frame into the active segment.
    private func append(_ frame: UnsafeRawBufferPointer) -> EnqueueReceipt {
        let (receipt, rolled) = appendState.withLock { state -> (EnqueueReceipt, Bool) in
            state.sequence += 1
            state.enqueued += 1
            let receipt = EnqueueReceipt(sequence: state.sequence)
            guard frame.count <= configuration.segmentBytes / 4 else {
                state.droppedOversize += 1
                return (receipt, false)
            }
            var rolled = false
            if state.used + frame.count > state.active.capacity {
                guard roll(&state) else {
                    state.lostToWriteFailures += 1
                    return (receipt, false)
                }
                rolled = true
            }
            let target = state.active.base + state.used
            // Everything but the magic first, then the magic: a record cut short by a kill has none.
            (target + 4).copyMemory(from: frame.baseAddress! + 4, byteCount: frame.count - 4)
            target.storeBytes(of: RecordFrame.magic.littleEndian, as: UInt32.self)
            state.used += frame.count
            state.appendedRecords += 1
            return (receipt, rolled)
        }
        if rolled { signal.wake() }
        return receipt
    }

    /// Seals the active segment and makes the spare (or a new segment) active; false when no
    /// segment could be created.
    private func roll(_ state: inout AppendState) -> Bool {
        let next: MappedSegment
        if let prepared = spare.withLock({ $0.take() }) {
            next = prepared
        } else {
            spareCreation.lock()
            defer { spareCreation.unlock() }
            if let prepared = spare.withLock({ $0.take() }) {
                next = prepared
            } else {
                do {
                    next = try createSegment()
                } catch {
                    if state.failure == nil { state.failure = error }
                    return false
                }
            }
        }
        state.sealed.append((state.active, state.used))
        state.sealedBytes[state.active.id] = state.used
        state.active = next
        state.used = 0
        return true
    }

    /// Creates the next segment file and makes its name durable.
    func createSegment() throws(QueueError) -> MappedSegment {
        let id = nextSegmentId.withLock { id in
            defer { id += 1 }
            return id
        }
        let segment = try MappedSegment.create(in: segmentsDirectory, id: id, capacity: configuration.segmentBytes)
        try POSIXFile.syncDirectory(segmentsDirectory)
        return segment
    }

    /// Returns once `receipt`'s event and every event before it are synced to disk.
    public func waitUntilDurable(_ receipt: EnqueueReceipt) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let resolved: Result<Void, QueueError>? = durability.withLock { state in
                if state.committed >= receipt.sequence { return .success(()) }
                if let failure = state.failure { return .failure(failure) }
                state.waiters.append((receipt.sequence, continuation))
                return nil
            }
            switch resolved {
            case .success: continuation.resume()
            case .failure(let error): continuation.resume(throwing: error)
            case nil: signal.wake()
            }
        }
    }

    // MARK: Observation

    /// The queue's contents and counters now.
    public var stats: QueueStats {
        let append = appendState.withLock { state in
            (state.appendedRecords, state.enqueued, state.lostToWriteFailures, state.droppedOversize,
             Int64(state.used) + Int64(state.sealedBytes.values.reduce(0, +)))
        }
        return index.withLock { state in
            var counters = state.journal.counters
            counters.droppedOversize += append.3
            let batches = state.journal.batches
            return QueueStats(
                pendingEvents: Int(append.0 &- min(append.0, state.retiredRecords)),
                batchedEvents: batches.reduce(0) { $0 + $1.eventCount },
                batches: batches.count,
                inFlightBatches: state.inFlight.count,
                parkedBatches: batches.filter { $0.state == .parked }.count,
                bytesOnDisk: append.4 + state.batchBytes.values.reduce(0, +),
                enqueuedSinceOpen: append.1,
                lostToWriteFailures: append.2,
                counters: counters)
        }
    }

    /// Calls `observer` on the writer's thread after each commit with the number of events
    /// waiting for a batch: the upload driver uses it to flush at the batch size.
    public func observeCommits(_ observer: @escaping @Sendable (Int) -> Void) {
        commitObserver.withLock { $0 = observer }
    }

    /// Syncs everything enqueued so far, now, on the calling thread.
    public func commit() throws(QueueError) {
        try commitOnce()
    }

    /// Stops the writer after a last commit; waiting callers then fail with ``QueueError/closed``.
    public func close() {
        signal.close()
        signal.waitUntilFinished()
    }
}
