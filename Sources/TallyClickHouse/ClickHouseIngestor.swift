import Foundation
import TallyEvents
import TallySupport
import TallyStore

/// Validates event files with the same code as the SQLite store (`Ingestor.validate`) and
/// streams the events to ClickHouse in batches of gzip-compressed JSONEachRow; rejected lines
/// never reach the event tables, they go to `rejected_lines`.
///
/// Duplicates are counted at ingest: a key seen earlier in the batch, or found in `event_keys`
/// (one query per batch, the batch's keys sent along as external data), is skipped, so the
/// first stored wins as in SQLite. A batch's tables are inserted at the same time, then its keys. A batch the network loses after the server stored it is sent
/// again unchanged: Replicated tables drop the identical block, and on a single server the
/// ingest then has the table merged (`OPTIMIZE … FINAL`), whose ReplacingMergeTree engine
/// collapses the identical rows, so the reports, which read without `FINAL`, count them once.
/// A send that fails part way may leave events stored without their keys: their keys are kept
/// as uncertain, and when those events come again they are stored again and their tables merged
/// the same way.
public final class ClickHouseIngestor {
    private struct Pending {
        var family: EventFamily
        var key: String
        var table: String
        var row: String
    }

    /// Counts since this ingestor was created.
    public private(set) var counts = IngestCounts()
    /// How many rejected lines of each file read by `ingest(file:)` are kept whole; later ones
    /// keep their file, line, element and code only, as `Ingestor.rejectedLinesKeptInFull`.
    public var rejectedLinesKeptInFull = 1000
    private var rawRejectionsLeft = Int.max
    private let client: ClickHouseClient
    private let batchSize: Int
    private var pending: [Pending] = []
    private var pendingKeys: [EventFamily: Set<String>] = [:]
    private var rejectedRows: [UInt8] = []
    private var dateCache: (day: Int, text: String) = (Int.min, "")
    /// Keys of events a failed send may have stored without their keys, per family.
    private var uncertain: [EventFamily: Set<String>] = [:]

    /// Creates an ingestor writing through `client`, sending every `batchSize` events.
    public init(client: ClickHouseClient, batchSize: Int = 100_000) {
        self.client = client
        self.batchSize = max(1, batchSize)
    }

    /// Reads one event file (or `-` for stdin) and stores its records; returns this file's counts.
    public func ingest(file path: String, onRejection: Ingestor.RejectionHandler,
                       onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void = { _, _ in }) throws -> IngestCounts {
        rawRejectionsLeft = rejectedLinesKeptInFull
        defer { rawRejectionsLeft = .max }
        return try ingest(try EventFileReader(path: path), onRejection: onRejection, onProgress: onProgress)
    }

    /// Reads every record of `reader` and stores them; returns the counts of this input.
    public func ingest(_ reader: EventFileReader, onRejection: Ingestor.RejectionHandler,
                       onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void = { _, _ in }) throws -> IngestCounts {
        let before = counts
        var seen = 0
        var unread: Ingestor.UnreadRemainder?
        do {
            try reader.forEachRecord { record in
                let remainder = try Ingestor.validate(record) { piece, result in
                    let origin = RecordOrigin(file: reader.path, line: piece.line, element: piece.index)
                    switch result {
                    case .failure(let rejection):
                        keep(rejection, raw: piece.bytes, origin: origin)
                        onRejection(origin, rejection)
                    case .success(let event):
                        add(event)
                    }
                    if batchIsFull { try flush() }
                }
                if unread == nil { unread = remainder }
                seen += 1
                if seen % 8192 == 0 { onProgress(reader.bytesRead, reader.totalBytes) }
            }
        } catch let error as EventFileError {
            // The input is damaged part way (a truncated gzip): store the whole records before it.
            try flush()
            throw error
        }
        try flush()
        onProgress(reader.bytesRead, reader.totalBytes)
        if let unread {
            throw EventFileError.unreadAfterDamage(file: reader.path, line: unread.line, bytes: unread.bytes)
        }
        return IngestCounts(accepted: counts.accepted - before.accepted, duplicates: counts.duplicates - before.duplicates,
                            rejected: counts.rejected - before.rejected)
    }

    /// Queues `event` for the next send; false (a duplicate, counted) when its key is already
    /// queued.
    @discardableResult
    func add(_ event: Event) -> Bool {
        let key = event.idempotencyKey
        guard pendingKeys[event.family, default: []].insert(key).inserted else {
            counts.duplicates += 1
            return false
        }
        let date = LocalDate(instantMs: event.timestampMs, offsetMinutes: event.common.timezoneOffsetMinutes)
        if date.dayNumber != dateCache.day { dateCache = (date.dayNumber, date.description) }
        pending.append(Pending(family: event.family, key: key, table: event.clickHouseTable,
                               row: event.clickHouseRow(localDate: dateCache.text)))
        return true
    }

    /// Whether the next send must go now to keep batches at `batchSize`.
    var batchIsFull: Bool { pending.count >= batchSize }

    /// Counts a rejected record and queues its line for `rejected_lines`.
    func keep(_ rejection: EventRejection, raw: UnsafeRawBufferPointer, origin: RecordOrigin) {
        counts.rejected += 1
        let whole = rawRejectionsLeft > 0
        if whole { rawRejectionsLeft -= 1 }
        var row = RowWriter()
        row.text("file", origin.file)
        row.number("line", Int64(origin.line))
        row.number("element", Int64(origin.element ?? -1))
        row.text("code", rejection.code.rawValue)
        row.text("field", whole ? rejection.field : nil)
        row.text("message", whole ? rejection.message : "")
        row.text("event_key", whole ? rejection.eventKey : nil)
        row.text("raw", whole ? String(decoding: raw, as: UTF8.self) : "")
        rejectedRows.append(contentsOf: row.finish().utf8)
    }

    /// Sends what is pending: looks up which keys are stored, inserts the rest, then their keys.
    public func flush() throws {
        _ = try send()
    }

    /// Sends what is pending and returns the pending keys that were already stored, per
    /// family (those events were skipped as duplicates; the others are now stored). After a
    /// failure nothing stays pending, and the keys that were about to be stored become uncertain.
    func send() throws -> [EventFamily: Set<String>] {
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingKeys.removeAll(keepingCapacity: true)
            rejectedRows.removeAll(keepingCapacity: true)
        }
        var stored: [EventFamily: Set<String>] = [:]
        if !pending.isEmpty {
            stored = try storedKeys()
            var bodies: [String: [UInt8]] = [:]
            var keys: [UInt8] = []
            var accepted = 0
            var sending: [EventFamily: Set<String>] = [:]
            var recovering: Set<String> = []
            for event in pending {
                if stored[event.family]?.contains(event.key) == true {
                    counts.duplicates += 1
                    continue
                }
                bodies[event.table, default: []].append(contentsOf: event.row.utf8)
                var row = RowWriter()
                row.text("family", event.family.rawValue)
                row.text("key", event.key)
                keys.append(contentsOf: row.finish().utf8)
                sending[event.family, default: []].insert(event.key)
                if uncertain[event.family]?.contains(event.key) == true { recovering.insert(event.table) }
                accepted += 1
            }
            do {
                for table in recovering.sorted() {
                    try ClickHouseRollups.markStale(fedBy: table, using: client)
                }
                for table in try insertAll(bodies).union(recovering).sorted() {
                    try collapseCopies(in: table)
                }
                if !keys.isEmpty {
                    try client.insert(into: "event_keys", jsonEachRow: keys)
                }
            } catch {
                uncertain.merge(sending) { $0.union($1) }
                throw error
            }
            if !uncertain.isEmpty {
                for event in pending { uncertain[event.family]?.remove(event.key) }
                uncertain = uncertain.filter { !$0.value.isEmpty }
            }
            counts.accepted += accepted
        }
        if !rejectedRows.isEmpty {
            try client.insert(into: "rejected_lines", jsonEachRow: rejectedRows)
        }
        return stored
    }

    /// Merges `table` so that the copies a resent batch may have left collapse into one row,
    /// then remakes the rollups it feeds from it (`ClickHouseRollups`, marked stale before). A
    /// Distributed table cannot be merged from here; its shards' Replicated tables drop the
    /// resent block themselves.
    private func collapseCopies(in table: String) throws {
        do {
            try client.execute("OPTIMIZE TABLE \(table) FINAL")
            try ClickHouseRollups.remake(fedBy: table, using: client)
        } catch ClickHouseError.server(_, _, let message) where message.hasPrefix("Code: 48,") {
            return // "Method optimize is not supported by storage Distributed"
        }
    }

    /// Inserts each table's body, all at the same time; returns the tables whose insert was
    /// sent more than once. Throws the first failure, once every insert has finished.
    private func insertAll(_ bodies: [String: [UInt8]]) throws -> Set<String> {
        let work = bodies.sorted { $0.key < $1.key }
        let client = self.client
        let outcomes = Locked<[Int: Result<Bool, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: work.count) { index in
            let table = work[index].key
            let outcome = Result {
                try client.insert(into: table, jsonEachRow: work[index].value) {
                    try ClickHouseRollups.markStale(fedBy: table, using: client)
                }
            }
            outcomes.withLock { $0[index] = outcome }
        }
        var resent: Set<String> = []
        for (index, (table, _)) in work.enumerated() {
            if try outcomes.withLock({ $0[index] })?.get() == true { resent.insert(table) }
        }
        return resent
    }

    /// The pending keys already in `event_keys`, per family: one query, the keys sent along
    /// as the external table `batch_keys`.
    private func storedKeys() throws -> [EventFamily: Set<String>] {
        var rows: [UInt8] = []
        for (family, keys) in pendingKeys {
            for key in keys {
                rows.append(contentsOf: family.rawValue.utf8)
                rows.append(UInt8(ascii: "\t"))
                rows.append(contentsOf: ClickHouseSQL.literal(key).utf8.dropFirst().dropLast())
                rows.append(UInt8(ascii: "\n"))
            }
        }
        var stored: [EventFamily: Set<String>] = [:]
        guard !rows.isEmpty else { return stored }
        let result = try client.query("SELECT family, key FROM event_keys WHERE (family, key) IN batch_keys",
                                      table: "batch_keys", structure: "family String, key String", rows: rows)
        for row in result.rows {
            if case .text(let name) = row[0], let family = EventFamily(rawValue: name), case .text(let key) = row[1] {
                stored[family, default: []].insert(key)
            }
        }
        return stored
    }
}
