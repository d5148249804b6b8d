import TallyEvents

/// Validates records and stores them in batches: each batch, its rollups and its rejected
/// lines commit in one transaction, so a crash at any moment leaves the store consistent and
/// re-running the same input converges (stored events come back as duplicates).
public final class Ingestor {
    /// Called for every rejected record, in input order (for stderr or a per-event answer).
    public typealias RejectionHandler = (RecordOrigin, EventRejection) -> Void

    let database: Database
    private let events: EventWriter
    private let rollups: RollupWriter
    private let rejectedLines: Statement
    let batchSize: Int
    private var batch = RollupBatch()
    private var pending = 0
    private var inTransaction = false
    private var dateCache: (day: Int, text: String) = (Int.min, "")
    /// The chunks stored by `addAhead` since the last commit, with what the claims of their
    /// keys found: their rollups are added up from them here only when the reading thread's
    /// could not be used (`commit(rollupsAhead:)`).
    private var aheadChunks: [(chunk: ValidatedChunk, claimed: [Bool])] = []
    /// Whether every valid record of `aheadChunks` was new.
    private var aheadAllNew = true
    /// Counts since this ingestor was created.
    public private(set) var counts = IngestCounts()
    /// How many rejected lines of each file read by `ingest(file:)` are kept whole; later ones
    /// keep their file, line, element and code only (`message` and `raw` empty), so a file of
    /// garbage cannot blow up the store. Request bodies, bounded in size, are always kept whole.
    public var rejectedLinesKeptInFull = 1000
    /// Whole rejected lines the current file may still keep.
    var rawRejectionsLeft = Int.max

    /// Creates an ingestor writing into `store`, committing every `batchSize` records.
    public init(store: EventStore, batchSize: Int = 20_000) throws {
        database = store.database
        events = try EventWriter(database: database)
        rollups = try RollupWriter(database: database)
        rejectedLines = try database.prepare("""
            INSERT OR IGNORE INTO rejected_lines (file, line, element, code, field, message, event_key, raw)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        self.batchSize = batchSize
    }

    /// Validates and stores one record (the UTF-8 bytes of one JSON value).
    ///
    /// `malformed` says why the reader could not cut a whole JSON value out of the input
    /// (a damaged batch array): such a record is rejected as `INVALID_JSON`.
    @discardableResult
    public func add(_ bytes: UnsafeRawBufferPointer, origin: RecordOrigin, malformed: String? = nil) throws -> IngestOutcome {
        try store(Self.validate(bytes, malformed: malformed), raw: bytes.bindMemory(to: UInt8.self), origin: origin)
    }

    /// The validation of one record: `malformed` records are `INVALID_JSON` without parsing.
    public static func validate(_ bytes: UnsafeRawBufferPointer, malformed: String?) -> Result<Event, EventRejection> {
        malformed.map { .failure(EventRejection(code: .invalidJSON, message: $0)) } ?? EventValidator.validate(bytes)
    }

    /// Stores one validated record: the event (unless its key is stored) or the rejected line.
    func store(_ result: Result<Event, EventRejection>, raw: UnsafeBufferPointer<UInt8>, origin: RecordOrigin) throws -> IngestOutcome {
        try begin()
        let outcome = try keep(result, raw: raw, origin: origin, claimed: nil, localDate: nil)
        if pending >= batchSize {
            try commit()
        }
        return outcome
    }

    /// Stores the records of a validated chunk in order, telling `onOutcome` what happened to
    /// each; they commit with the current batch (call `commit()` to make them durable now).
    /// The keys of a chunk no larger than a batch are claimed first, in key order
    /// (`EventWriter.claim`), and the batch then commits only after the chunk, so that no key
    /// is ever committed without its event; a larger chunk is stored record by record.
    public func add(_ chunk: ValidatedChunk, onOutcome: (ValidatedChunk.Entry, IngestOutcome) -> Void) throws {
        try chunk.bytes.withUnsafeBufferPointer { bytes in
            guard chunk.entries.count <= batchSize else {
                for entry in chunk.entries {
                    onOutcome(entry, try store(entry.result, raw: UnsafeBufferPointer(rebasing: bytes[entry.range]), origin: entry.origin))
                }
                return
            }
            try begin()
            let claimed = try events.claim(chunk)
            for (i, entry) in chunk.entries.enumerated() {
                let raw = UnsafeBufferPointer(rebasing: bytes[entry.range])
                onOutcome(entry, try keep(entry.result, raw: raw, origin: entry.origin, claimed: claimed[i], localDate: entry.localDate))
            }
            if pending >= batchSize {
                try commit()
            }
        }
    }

    /// Stores a chunk as `add(_:onOutcome:)` does, except that its events' rollups are left to
    /// `commit(rollupsAhead:)`, which commits it (whatever the batch's size by then) with the
    /// rollups the reading thread added up: the storing thread only claims keys and writes rows.
    func addAhead(_ chunk: ValidatedChunk, onOutcome: (ValidatedChunk.Entry, IngestOutcome) throws -> Void) throws {
        try begin()
        let claimed = try events.claim(chunk)
        try chunk.bytes.withUnsafeBufferPointer { bytes in
            for (i, entry) in chunk.entries.enumerated() {
                let raw = UnsafeBufferPointer(rebasing: bytes[entry.range])
                let outcome = try keep(entry.result, raw: raw, origin: entry.origin, claimed: claimed[i], localDate: entry.localDate,
                                       addsRollups: false)
                if case .duplicate = outcome { aheadAllNew = false }
                try onOutcome(entry, outcome)
            }
        }
        aheadChunks.append((chunk, claimed))
    }

    /// Commits the chunks stored by `addAhead` since the last commit. `rollups` are theirs as
    /// the reading thread added them up, every valid record taken as new: they are written as
    /// they are when that held; when some record was stored already (a file sent again) the
    /// rollups of the events actually stored are added up here instead, as `add` does.
    func commit(rollupsAhead rollups: RollupBatch) throws {
        if aheadAllNew && batch.isEmpty {
            batch = rollups
            aheadChunks = []
        }
        try commit()
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
    /// it was claimed beforehand (nil: claim it now), `localDate` is the event's when known.
    /// Unless `addsRollups` is false, a new event's rollups are merged into the batch.
    private func keep(_ result: Result<Event, EventRejection>, raw: UnsafeBufferPointer<UInt8>, origin: RecordOrigin,
                      claimed: Bool?, localDate: String?, addsRollups: Bool = true) throws -> IngestOutcome {
        let outcome: IngestOutcome
        switch result {
        case .failure(let rejection):
            try keepRejected(rejection, raw: raw, origin: origin)
            counts.rejected += 1
            outcome = .rejected(rejection)
        case .success(let event):
            let localDate = localDate ?? localDateText(LocalDate(instantMs: event.timestampMs,
                                                                 offsetMinutes: event.common.timezoneOffsetMinutes))
            if try events.insert(event, localDate: localDate, claimed: claimed) {
                if addsRollups { batch.add(event, localDate: localDate) }
                counts.accepted += 1
                outcome = .accepted(key: event.idempotencyKey)
            } else {
                counts.duplicates += 1
                outcome = .duplicate(key: event.idempotencyKey)
            }
        }
        pending += 1
        return outcome
    }

    /// Passes over the stored exposure pairs made so far for pairs that moved to another group.
    var passesOverExposurePairs: Int { rollups.passesOverExposurePairs }

    /// Writes the rollups of the current batch and commits it.
    public func commit() throws {
        guard inTransaction else { return }
        addAheadRollups()
        do {
            if !batch.isEmpty {
                try rollups.write(batch)
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            inTransaction = false
            rollups.forget()
            batch = RollupBatch()
            throw error
        }
        inTransaction = false
        batch = RollupBatch()
        pending = 0
    }

    /// Drops the uncommitted batch (after an error the caller reports); counts are not rewound.
    public func rollback() {
        guard inTransaction else { return }
        try? database.execute("ROLLBACK")
        inTransaction = false
        rollups.forget()
        batch = RollupBatch()
        aheadChunks = []
        aheadAllNew = true
        pending = 0
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
        s.bindText(whole ? raw : UnsafeBufferPointer(start: nil, count: 0), at: 8)
        try s.step()
        s.reset()
    }

    private func localDateText(_ date: LocalDate) -> String {
        if date.dayNumber != dateCache.day {
            dateCache = (date.dayNumber, date.description)
        }
        return dateCache.text
    }
}
