import Foundation
import TallyEvents
import TallyIngest
import TallySupport

/// Sends prepared batches, one after another: looks up which of a batch's keys are stored,
/// works out what the other events change in the dislike-rate counters (`ImpressionStates`) and
/// the exposure counts (`ExposurePairs`), inserts those events and changes (every table at the
/// same time; the events' inserts update the states and the keys' set), then the batch's
/// rejected lines. From before its first insert until every insert is acknowledged, a batch is
/// marked in flight (`InFlightBatch`), so a run stopped in between is repaired. Since each batch
/// is stored before the next one's lookup, a key the ingest met in an earlier batch is found as
/// stored.
///
/// It runs on one thread at a time: the ingestor hands it a batch and waits for it before
/// handing the next or reading its counts, so its state needs no lock.
final class ClickHouseBatchSender: @unchecked Sendable {
    /// Events stored, and events skipped because their key was found stored.
    private(set) var accepted = 0
    private(set) var duplicates = 0
    private let client: ClickHouseClient
    /// Keys of events a failed send may have stored, per family: sent again when they come again.
    private var uncertain: [EventFamily: Set<Bytewise<String>>] = [:]
    /// This sender's in-flight mark (`InFlightBatch`), and whether it is set.
    private let mark = InFlightBatch.newMark()
    private var marked = false
    /// Whether the lookups probe the database's sets (`ProbeSets`), once asked.
    private var probes: Bool?

    init(client: ClickHouseClient) {
        self.client = client
    }

    /// Sends `batch` and returns its keys that were already stored, per family (those events
    /// were skipped as duplicates; the others are now stored). After a failure the keys that
    /// were about to be stored become uncertain: when they come again, they are stored again
    /// and their tables merged, so that the copies collapse.
    func send(_ batch: ClickHouseBatch) throws -> [EventFamily: Set<Bytewise<String>>] {
        var stored: [EventFamily: Set<Bytewise<String>>] = [:]
        if batch.count > 0 {
            stored = try storedKeys(batch)
            var bodies = batch.rows
            var sending: [EventFamily: Set<Bytewise<String>>] = [:]
            var recovering: Set<String> = []
            var sent = 0
            if !stored.isEmpty {
                for index in bodies.indices { bodies[index].removeAll() }
            }
            for entry in batch.entries {
                if stored[entry.family]?.contains(Bytewise(entry.key)) == true {
                    duplicates += 1
                    continue
                }
                sent += 1
                if !stored.isEmpty {
                    bodies[entry.family.index].append(rowsOf: batch.rows[entry.family.index], range: entry.row)
                }
                if !uncertain.isEmpty {
                    sending[entry.family, default: []].insert(Bytewise(entry.key))
                    if uncertain[entry.family]?.contains(Bytewise(entry.key)) == true { recovering.insert(entry.family.clickHouseTable) }
                }
            }
            let impressionChanges = try ImpressionStates.changes(for: impressionShares(batch, skipping: stored), probing: try probing(),
                                                                 using: client)
            let pairs = pairShares(batch, skipping: stored)
            let pairChanges = try ExposurePairs.changes(for: pairs.shares, shared: pairs.shared, probing: try probing(), using: client)
            do {
                if !marked, sent > 0 {
                    try client.mark(mark)
                    marked = true
                }
                var stale = false
                for table in recovering.sorted() {
                    stale = try ClickHouseRollups.markStale(fedBy: table, using: client) || stale
                }
                var inserts = EventFamily.allCases.filter { bodies[$0.index].count > 0 }.map {
                    Insert(table: $0.clickHouseTable, columns: $0.clickHouseColumns, rows: bodies[$0.index], stale: nil)
                }
                if impressionChanges.count > 0 {
                    inserts.append(Insert(table: ImpressionStates.changes, columns: ImpressionStates.changeColumns,
                                          rows: impressionChanges, stale: ImpressionStates.reactions))
                }
                if pairChanges.rows.count > 0 {
                    inserts.append(Insert(table: ExposurePairs.changes, columns: ExposurePairs.changeColumns,
                                          rows: pairChanges.rows, stale: ExposurePairs.table))
                    // Rows that move a pair to other groups may leave a member behind in
                    // `exposure_members`, which only adds: its rollups are remade below.
                    if pairChanges.moved {
                        stale = try ClickHouseRollups.markStale(fedBy: ExposurePairs.table, using: client) || stale
                    }
                }
                let done = try insertAll(inserts)
                try collapseCopies(in: done.resent.union(recovering), remake: stale || done.marked)
            } catch {
                if uncertain.isEmpty {
                    for entry in batch.entries where stored[entry.family]?.contains(Bytewise(entry.key)) != true {
                        sending[entry.family, default: []].insert(Bytewise(entry.key))
                    }
                }
                uncertain.merge(sending) { $0.union($1) }
                throw error
            }
            if !uncertain.isEmpty {
                for entry in batch.entries { uncertain[entry.family]?.remove(Bytewise(entry.key)) }
                uncertain = uncertain.filter { !$0.value.isEmpty }
            }
            // While events a failed send may have stored have not come again, the mark stays.
            if marked, uncertain.isEmpty {
                try client.dropTable(mark)
                marked = false
            }
            accepted += sent
        }
        if batch.rejectedRows.count > 0 {
            try client.insert(into: "rejected_lines", columns: Self.rejectedColumns, rows: batch.rejectedRows)
        }
        return stored
    }

    /// The columns of a `rejected_lines` row, in the order `ClickHouseIngestor` writes them.
    static let rejectedColumns = ["file", "line", "element", "code", "field", "message", "event_key", "raw"]

    /// Merges the event tables among `tables` so that the copies a resent insert may have left
    /// collapse into one row, then, with `remake` (rollups were marked stale), remakes the
    /// rollups marked stale (`ClickHouseRollups`) once every table is merged: one remake reads
    /// all the marked tables, and replaces what this batch's states were computed from. A
    /// Distributed table cannot be merged from here; its shards' Replicated tables drop the
    /// resent block themselves.
    private func collapseCopies(in tables: Set<String>, remake: Bool) throws {
        for family in EventFamily.allCases where tables.contains(family.clickHouseTable) {
            do {
                try client.mergeFinal(family.clickHouseTable)
            } catch let error as ClickHouseError where error.code == ClickHouseError.notImplemented {
                continue // "Method optimize is not supported by storage Distributed"
            }
        }
        if remake {
            try ClickHouseRollups.create(using: client, cluster: nil)
        }
    }

    /// One insert of a batch: its table, columns and `RowBinary` rows, and the table whose rollups
    /// a resend marks stale when not its own (a change table's counters are remade from their states).
    private struct Insert {
        var table: String
        var columns: [String]
        var rows: RowBinaryWriter
        var stale: String?
    }

    /// Runs `inserts` (each family's events, and the changes to the feed counters), all at the
    /// same time: a change needs only the lookup before it. Returns the tables whose insert was
    /// sent more than once, and whether a resend marked rollups stale (it does so before sending
    /// again). Throws the first failure, once every insert has finished.
    private func insertAll(_ inserts: [Insert]) throws -> (resent: Set<String>, marked: Bool) {
        let client = self.client
        let outcomes = Locked<[Int: Result<Bool, any Error>]>([:])
        let marked = Locked(false)
        DispatchQueue.concurrentPerform(iterations: inserts.count) { index in
            let insert = inserts[index]
            let outcome = Result {
                try client.insert(into: insert.table, columns: insert.columns, rows: insert.rows) {
                    if try ClickHouseRollups.markStale(fedBy: insert.stale ?? insert.table, using: client) { marked.withLock { $0 = true } }
                }
            }
            outcomes.withLock { $0[index] = outcome }
        }
        var resent: Set<String> = []
        for (index, insert) in inserts.enumerated() {
            if try outcomes.withLock({ $0[index] })?.get() == true { resent.insert(insert.table) }
        }
        return (resent, marked.withLock { $0 })
    }

    /// What the batch's new events bring to each impression they touch, merged per impression
    /// (the events found stored are skipped).
    private func impressionShares(_ batch: ClickHouseBatch, skipping stored: [EventFamily: Set<Bytewise<String>>]) -> [ImpressionStates.Key: ImpressionState] {
        var shares: [ImpressionStates.Key: ImpressionState] = Dictionary(minimumCapacity: batch.impressions.count)
        for fact in batch.impressions {
            if Self.isStored(fact.entry, of: batch, in: stored) { continue }
            if let index = shares.index(forKey: fact.key) {
                shares.values[index] = shares.values[index].merging(fact.share)
            } else {
                shares[fact.key] = fact.share
            }
        }
        return shares
    }

    /// What the batch's new exposure events bring to each (page instance, item), merged per pair,
    /// and the pairs among them whose events came from more than one user (each event is compared
    /// with the pair's first so far, so any second user is found).
    private func pairShares(_ batch: ClickHouseBatch, skipping stored: [EventFamily: Set<Bytewise<String>>])
        -> (shares: [ExposurePairs.Key: ExposurePairs.First], shared: Set<ExposurePairs.Key>) {
        var shares: [ExposurePairs.Key: ExposurePairs.First] = Dictionary(minimumCapacity: batch.pairs.count)
        var shared: Set<ExposurePairs.Key> = []
        for fact in batch.pairs {
            if Self.isStored(fact.entry, of: batch, in: stored) { continue }
            if let index = shares.index(forKey: fact.key) {
                let share = shares.values[index]
                if !share.user.hasSameBytes(as: fact.share.user) { shared.insert(fact.key) }
                shares.values[index] = share.merging(fact.share)
            } else {
                shares[fact.key] = fact.share
            }
        }
        return (shares, shared)
    }

    /// Whether the batch's event at `index` of its entries is among the `stored` keys.
    private static func isStored(_ index: Int, of batch: ClickHouseBatch, in stored: [EventFamily: Set<Bytewise<String>>]) -> Bool {
        guard !stored.isEmpty else { return false }
        let entry = batch.entries[index]
        return stored[entry.family]?.contains(Bytewise(entry.key)) == true
    }

    /// The columns of the batch's keys as the lookups send them (`ClickHouseBatch.keyRows`): the
    /// event's place in the batch, its family, key and user.
    private static let keyStructure = "n UInt32, family String, key String, user_id String"

    /// How many of a batch's keys the keys' set may hold for them to be looked up under their
    /// users. A user's events span a granule or two of each month they were active in, so a few
    /// dozen users' reads come near the whole table's, and past that the key column read whole
    /// costs less (measured at 12M stored: 1,000 stored keys 0.22-0.24 s by key alone, 0.67-0.77 s
    /// under their users).
    static let candidatesLookedUpByUser = 64

    /// The batch's keys already stored, per family, less those of events a failed send may have
    /// stored (`uncertain`: they are sent again). Where the database has the keys' set
    /// (`ProbeSets`), one query counts the batch's keys the set holds (the candidates), usually
    /// none. A few are looked up in their tables under their users (the event tables' sorting
    /// key: a granule or two each), and looked up again by key alone if any is not found there
    /// (a key stored under another user, or a hash collision); more are looked up by key alone at
    /// once. Without the set every key is looked up by key alone. The answers name the events by
    /// their place in the batch, so the client reads numbers, not keys.
    private func storedKeys(_ batch: ClickHouseBatch) throws -> [EventFamily: Set<Bytewise<String>>] {
        let families = Set(batch.entries.map(\.family))
        var found: [Int] = []
        if try probing() {
            let probed = ProbeSets.eventKeys.holds
            let candidates = try client.query("SELECT count() FROM batch_keys WHERE \(probed)",
                                              table: "batch_keys", structure: Self.keyStructure, rows: batch.keyRows).rows.first?.first?.int ?? 0
            if candidates > 0, candidates <= Self.candidatesLookedUpByUser {
                found = try client.query(
                    "SELECT n FROM batch_keys WHERE \(probed) AND (family, key) IN (\(stored(families, where: probed, byUser: true)))",
                    table: "batch_keys", structure: Self.keyStructure, rows: batch.keyRows).rows.map { $0[0].int }
            }
            if candidates > found.count { found = try lookUp(batch.keyRows, in: families, where: probed) }
        } else {
            found = try lookUp(batch.keyRows, in: families, where: nil)
        }
        var stored: [EventFamily: Set<Bytewise<String>>] = [:]
        for index in found {
            let entry = batch.entries[index]
            if uncertain[entry.family]?.contains(Bytewise(entry.key)) != true { stored[entry.family, default: []].insert(Bytewise(entry.key)) }
        }
        return stored
    }

    /// The places of the keys of `rows` (sent as the external table `batch_keys`; those meeting
    /// `condition`) stored in their families' tables, looked up by key alone.
    private func lookUp(_ rows: RowBinaryWriter, in families: Set<EventFamily>, where condition: String?) throws -> [Int] {
        try client.query("SELECT n FROM batch_keys WHERE \(condition.map { "\($0) AND " } ?? "")(family, key) IN (\(stored(families, where: condition, byUser: false)))",
                         table: "batch_keys", structure: Self.keyStructure, rows: rows).rows.map { $0[0].int }
    }

    /// The (family, key) pairs of `families`' tables whose keys are in `batch_keys` (those
    /// meeting `condition`), with `byUser` only under the users that sent them: one `SELECT` per
    /// family, in one `UNION ALL`.
    private func stored(_ families: Set<EventFamily>, where condition: String?, byUser: Bool) -> String {
        EventFamily.allCases.filter(families.contains).map { family in
            let name = ClickHouseSQL.literal(family.rawValue), key = family.clickHouseColumns[0]
            let batch = "batch_keys WHERE family = \(name)" + (condition.map { " AND \($0)" } ?? "")
            let user = byUser ? "user_id IN (SELECT user_id FROM \(batch)) AND " : ""
            return "SELECT \(name), \(key) FROM \(family.clickHouseTable) WHERE \(user)\(key) IN (SELECT key FROM \(batch))"
        }.joined(separator: " UNION ALL ")
    }

    /// Whether the lookups probe the database's sets (`ProbeSets`); asked once per sender.
    private func probing() throws -> Bool {
        if let probes { return probes }
        let ready = try ProbeSets.ready(using: client)
        probes = ready
        return ready
    }
}
