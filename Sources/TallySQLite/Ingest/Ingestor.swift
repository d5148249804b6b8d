import TallyEvents
import TallyIngest
import TallySupport

/// Validates records and stores them in batches: each batch, its rollups and its rejected
/// lines commit in one transaction, so a crash at any moment leaves the store consistent and
/// re-running the same input converges (stored events come back as duplicates).
public final class Ingestor {
    let database: Database
    private let events: EventWriter
    private let rollups: RollupWriter
    private let rejectedLines: Statement
    let batchSize: Int
    private var batch = RollupBatch()
    private var inTransaction = false
    /// The chunks stored by `store(_:onOutcome:)` since the last commit, with what the claims of their
    /// keys found: their rollups are added up from them here only when the reading thread's
    /// could not be used (`commit(rollupsAhead:)`).
    private var aheadChunks: [(chunk: ValidatedChunk, claimed: [Bool])] = []
    /// Whether every valid record of `aheadChunks` was new.
    private var aheadAllNew = true
    /// Counts since this ingestor was created.
    public private(set) var counts = IngestCounts()
    /// How many rejected lines of each file read by `ingest(file:)` are kept with their message
    /// and first bytes (`RejectedLine.prefixBytes`, with the whole line's length and SHA-256);
    /// later ones keep their file, line, element, code and length only (`message`, `raw` and
    /// `raw_sha256` empty), so a file of garbage cannot blow up the store. Request bodies,
    /// bounded in size, always keep them.
    public var rejectedLinesKeptInFull = 1000
    /// Records of a file per transaction (see `ingest(file:)`): each batch of `batchSize`
    /// writes its rollups, and the batches commit together once this many records are in.
    public var recordsPerCommit = 1_000_000
    /// The fewest keys of the recent run that a commit settles into `event_keys` (`KeyRuns`).
    public var recentKeysSettledAt: Int {
        get { events.keys.settleAt }
        set { events.keys.settleAt = newValue }
    }
    /// The least bound of a recent run of the feed's state, above which a commit settles part of it (`StateRuns`).
    public var recentStateSettledAt: Int {
        get { rollups.stateSettleAt }
        set { rollups.stateSettleAt = newValue }
    }
    /// Whole rejected lines the current file may still keep.
    var rawRejectionsLeft = Int.max

    /// Creates an ingestor writing into `store`, committing every `batchSize` records.
    public init(store: EventStore, batchSize: Int = 20_000) throws {
        database = store.database
        events = try EventWriter(database: database)
        rollups = try RollupWriter(database: database)
        rejectedLines = try database.prepare("""
            INSERT OR IGNORE INTO rejected_lines (file, line, element, code, field, message, event_key, raw, raw_bytes, raw_sha256)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        self.batchSize = batchSize
    }

    /// Stores the records of a validated chunk in order in the open batch, telling `onOutcome`
    /// what happened to each: the chunk's keys are claimed first, in key order
    /// (`EventWriter.claim`), then its rows are written. Its events' rollups are left to
    /// `commit(rollupsAhead:)`, which commits the batch with the rollups added up beforehand
    /// (by the reading thread, for a file), so that no key is ever committed without its event.
    func store(_ chunk: ValidatedChunk, onOutcome: (ValidatedChunk.Entry, IngestOutcome) throws -> Void) throws {
        try begin()
        let claimed = try events.claim(chunk)
        try chunk.bytes.withUnsafeBufferPointer { bytes in
            for (i, entry) in chunk.entries.enumerated() {
                let raw = UnsafeBufferPointer(rebasing: bytes[entry.range])
                let outcome = try keep(entry.result, raw: raw, origin: entry.origin, claimed: claimed[i], localDate: entry.localDate)
                if case .duplicate = outcome { aheadAllNew = false }
                try onOutcome(entry, outcome)
            }
        }
        aheadChunks.append((chunk, claimed))
    }

    /// Commits the chunks stored by `store(_:onOutcome:)` since the last commit. `rollups` are theirs as
    /// the reading thread added them up, every valid record taken as new: they are written as
    /// they are when that held; when some record was stored already (a file sent again) the
    /// rollups of the events actually stored are added up here instead, as `add` does.
    func commit(rollupsAhead rollups: RollupBatch) throws {
        adopt(rollups)
        try commit()
    }

    /// Writes the rollups of the chunks stored since the last batch, as `commit(rollupsAhead:)`
    /// does, and leaves the transaction open for the next batch; a failure is left to the
    /// caller, which rolls the transaction back (`rollback()`).
    func writeBatch(rollupsAhead rollups: RollupBatch) throws {
        adopt(rollups)
        try writeRollups()
    }

    /// Takes `rollups` (added up ahead, every event taken as new) as the batch's when that held.
    private func adopt(_ rollups: RollupBatch) {
        if aheadAllNew && batch.isEmpty {
            batch = rollups
            aheadChunks = []
        }
    }

    /// Writes the rollups of the batch (those of `aheadChunks` added up first) and starts the next.
    private func writeRollups() throws {
        addAheadRollups()
        if !batch.isEmpty {
            try rollups.write(batch)
        }
        batch = RollupBatch()
    }

    /// Adds the rollups of the events of `aheadChunks` that were new to the batch.
    private func addAheadRollups() {
        for (chunk, claimed) in aheadChunks {
            for (i, entry) in chunk.entries.enumerated() where claimed[i] {
                if case .success(let event) = entry.result {
                    batch.add(event, localDate: entry.localDate)
                }
            }
        }
        aheadChunks = []
        aheadAllNew = true
    }

    private func begin() throws {
        if !inTransaction {
            try database.execute("BEGIN IMMEDIATE")
            inTransaction = true
        }
    }

    /// Stores one record in the open transaction; `claimed` says whether its key was new when
    /// it was claimed, `localDate` is the event's.
    private func keep(_ result: Result<Event, EventRejection>, raw: UnsafeBufferPointer<UInt8>, origin: RecordOrigin,
                      claimed: Bool, localDate: String) throws -> IngestOutcome {
        let outcome: IngestOutcome
        switch result {
        case .failure(let rejection):
            try keepRejected(rejection, raw: raw, origin: origin)
            counts.rejected += 1
            outcome = .rejected(rejection)
        case .success(let event):
            if try events.insert(event, localDate: localDate, claimed: claimed) {
                counts.accepted += 1
                outcome = .accepted(key: event.idempotencyKey)
            } else {
                counts.duplicates += 1
                outcome = .duplicate(key: event.idempotencyKey)
            }
        }
        return outcome
    }

    /// Passes over the stored exposure pairs made so far for pairs that moved to another group.
    var passesOverExposurePairs: Int { rollups.passesOverExposurePairs }

    /// Writes the rollups of the current batch and commits it.
    public func commit() throws {
        guard inTransaction else { return }
        do {
            try writeRollups()
            try events.keys.settle()
            for runs in rollups.stateRuns {
                try runs.settle()
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            inTransaction = false
            rollups.forget()
            events.keys.forget()
            batch = RollupBatch()
            throw error
        }
        inTransaction = false
        batch = RollupBatch()
    }

    /// Drops the uncommitted batch (after an error the caller reports); counts are not rewound.
    public func rollback() {
        guard inTransaction else { return }
        try? database.execute("ROLLBACK")
        inTransaction = false
        rollups.forget()
        events.keys.forget()
        batch = RollupBatch()
        aheadChunks = []
        aheadAllNew = true
    }

    private func keepRejected(_ rejection: EventRejection, raw: UnsafeBufferPointer<UInt8>, origin: RecordOrigin) throws {
        let s = rejectedLines
        let whole = rawRejectionsLeft > 0
        if whole { rawRejectionsLeft -= 1 }
        s.bind(origin.file, at: 1)
        s.bind(Int64(origin.line), at: 2)
        s.bind(origin.element.map(Int64.init), at: 3)
        s.bind(rejection.code.rawValue, at: 4)
        s.bind(whole ? rejection.field : nil, at: 5)
        s.bind(whole ? rejection.message : "", at: 6)
        s.bind(whole ? rejection.eventKey : nil, at: 7)
        let line = UnsafeRawBufferPointer(raw)
        s.bindText(whole ? RejectedLine.prefix(of: line).assumingMemoryBound(to: UInt8.self)
                         : UnsafeBufferPointer(start: nil, count: 0), at: 8)
        s.bind(Int64(line.count), at: 9)
        s.bind(whole ? SHA256.hex(line) : "", at: 10)
        try s.step()
        s.reset()
    }
}
