import Foundation
import TallyEvents
import TallyIngest
import TallySupport

/// Sends prepared batches, one after another: looks up which of a batch's keys are stored,
/// inserts the other events (the event tables at the same time), then the changes they bring
/// to the impressions' states and the dislike-rate counters (`ImpressionStates`) and to the
/// exposure pairs and counts (`ExposurePairs`), then their
/// keys, then the batch's rejected lines. From before its first insert until its keys are
/// stored, a batch is marked in flight (`InFlightBatch`), so a run stopped in between is repaired. Since each batch is stored, keys included, before the next one's
/// lookup, a key the ingest met in an earlier batch is found as stored.
///
/// It runs on one thread at a time: the ingestor hands it a batch and waits for it before
/// handing the next or reading its counts, so its state needs no lock.
final class ClickHouseBatchSender: @unchecked Sendable {
    /// Events stored, and events skipped because their key was found stored.
    private(set) var accepted = 0
    private(set) var duplicates = 0
    private let client: ClickHouseClient
    /// Keys of events a failed send may have stored without their keys, per family.
    private var uncertain: [EventFamily: Set<Bytewise<String>>] = [:]
    /// Whether a send added to `exposure_members` since the last `compactMembers()`.
    private var membersGrew = false
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
            var keys = batch.keyRows
            var sending: [EventFamily: Set<Bytewise<String>>] = [:]
            var recovering: Set<String> = []
            var sent = 0
            if !stored.isEmpty {
                for index in bodies.indices { bodies[index].removeAll() }
                keys.removeAll()
            }
            for entry in batch.entries {
                if stored[entry.family]?.contains(Bytewise(entry.key)) == true {
                    duplicates += 1
                    continue
                }
                sent += 1
                if !stored.isEmpty {
                    bodies[entry.family.index].append(rowsOf: batch.rows[entry.family.index], range: entry.row)
                    keys.append(rowsOf: batch.keyRows, range: entry.keyRow)
                }
                if !uncertain.isEmpty {
                    sending[entry.family, default: []].insert(Bytewise(entry.key))
                    if uncertain[entry.family]?.contains(Bytewise(entry.key)) == true { recovering.insert(entry.family.clickHouseTable) }
                }
            }
            let impressionRows = try ImpressionStates.rows(for: impressionShares(batch, skipping: stored), probing: try probing(),
                                                           using: client)
            let pairs = pairShares(batch, skipping: stored)
            let pairRows = try ExposurePairs.rows(for: pairs.shares, shared: pairs.shared, probing: try probing(), using: client)
            do {
                if !marked, sent > 0 {
                    try InFlightBatch.begin(mark, using: client)
                    marked = true
                }
                for table in recovering.sorted() {
                    try ClickHouseRollups.markStale(fedBy: table, using: client)
                }
                let resent = try insertAll(bodies)
                if impressionRows.count > 0 {
                    try insertStates(impressionRows, into: ImpressionStates.table, columns: ImpressionStates.columns)
                }
                if pairRows.rows.count > 0 {
                    try insertStates(pairRows.rows, into: ExposurePairs.table, columns: ExposurePairs.columns, moved: pairRows.moved)
                    membersGrew = true
                }
                // Last: remaking the rollups of a merged table (the feed states among them) replaces
                // what this batch's states were computed from.
                try collapseCopies(in: resent.union(recovering))
                if keys.count > 0 {
                    try client.insert(into: "event_keys", columns: ["family", "key"], format: "RowBinary", body: keys.bytes)
                }
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
            // While events a failed send may have stored lack their keys, the mark stays.
            if marked, uncertain.isEmpty {
                try InFlightBatch.end(mark, using: client)
                marked = false
            }
            accepted += sent
        }
        if batch.rejectedRows.count > 0 {
            try client.insert(into: "rejected_lines", columns: Self.rejectedColumns, format: "TabSeparated", body: batch.rejectedRows.bytes)
        }
        return stored
    }

    /// The columns of a `rejected_lines` row, in the order `ClickHouseIngestor` writes them.
    static let rejectedColumns = ["file", "line", "element", "code", "field", "message", "event_key", "raw"]

    /// Merges the parts of `exposure_members` that the sends since the last call added: each
    /// insert adds a part holding a set of items and users per group, and `exposures` reads every
    /// part's sets until the server merges them (measured at 10M events: 0.13 s over five parts,
    /// 0.04 s over one). A Distributed table is left to its shards' background merges.
    func compactMembers() throws {
        guard membersGrew else { return }
        membersGrew = false
        do {
            try client.execute("OPTIMIZE TABLE exposure_members FINAL")
        } catch let error as ClickHouseError where error.code == ClickHouseError.notImplemented {
            return // "Method optimize is not supported by storage Distributed"
        }
    }

    /// Merges `tables` so that the copies a resent batch may have left collapse into one row,
    /// then remakes the rollups they feed from them (`ClickHouseRollups`, marked stale before),
    /// once every table is merged. A Distributed table cannot be merged from here; its shards'
    /// Replicated tables drop the resent block themselves.
    private func collapseCopies(in tables: Set<String>) throws {
        var merged: [String] = []
        for table in tables.sorted() {
            do {
                try client.mergeFinal(table)
                merged.append(table)
            } catch let error as ClickHouseError where error.code == ClickHouseError.notImplemented {
                continue // "Method optimize is not supported by storage Distributed"
            }
        }
        // Every table merged before any remake: one remake reads all the marked tables.
        if let table = merged.first(where: ClickHouseRollups.feed) {
            try ClickHouseRollups.remake(fedBy: table, using: client)
        }
    }

    /// Inserts each family's rows (those it has), all at the same time; returns the tables whose
    /// insert was sent more than once. Throws the first failure, once every insert has finished.
    private func insertAll(_ bodies: [RowBinaryWriter]) throws -> Set<String> {
        let work = EventFamily.allCases.filter { bodies[$0.index].count > 0 }
        let client = self.client
        let outcomes = Locked<[Int: Result<Bool, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: work.count) { index in
            let family = work[index]
            let table = family.clickHouseTable
            let outcome = Result {
                try client.insert(into: table, columns: family.clickHouseColumns, format: "RowBinary",
                                  body: bodies[family.index].bytes) {
                    try ClickHouseRollups.markStale(fedBy: table, using: client)
                }
            }
            outcomes.withLock { $0[index] = outcome }
        }
        var resent: Set<String> = []
        for (index, family) in work.enumerated() {
            if try outcomes.withLock({ $0[index] })?.get() == true { resent.insert(family.clickHouseTable) }
        }
        return resent
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

    /// Inserts the rows of `ImpressionStates` or `ExposurePairs` into `table`. An insert sent
    /// again may have been stored twice, counting its changes twice: the rollups of `table` are
    /// marked stale before the resend and remade from its state rows once it is stored (a state
    /// row stored twice changes nothing). Rows that move a pair to other groups (`moved`) mark
    /// them stale before the insert, for the same remake.
    private func insertStates(_ rows: RowWriter, into table: String, columns: [String], moved: Bool = false) throws {
        var marked = moved ? try ClickHouseRollups.markStale(fedBy: table, using: client) : false
        try client.insert(into: table, columns: columns, format: "TabSeparated", body: rows.bytes) {
            marked = try ClickHouseRollups.markStale(fedBy: table, using: client) || marked
        }
        if marked {
            try ClickHouseRollups.remake(fedBy: table, using: client)
        }
    }

    /// The batch's keys already in `event_keys`, per family: one query, the keys sent along
    /// as the external table `batch_keys`, probed first in the keys' set where the database has
    /// one (`ProbeSets`).
    private func storedKeys(_ batch: ClickHouseBatch) throws -> [EventFamily: Set<Bytewise<String>>] {
        var stored: [EventFamily: Set<Bytewise<String>>] = [:]
        let condition = ProbeSets.condition(ProbeSets.eventKeys, batch: "batch_keys", probing: try probing())
        let result = try client.query("SELECT family, key FROM event_keys WHERE \(condition)",
                                      table: "batch_keys", structure: "family String, key String", format: "RowBinary",
                                      rows: batch.keyRows.bytes)
        for row in result.rows {
            if case .text(let name) = row[0], let family = EventFamily(rawValue: name), case .text(let key) = row[1] {
                stored[family, default: []].insert(Bytewise(key))
            }
        }
        return stored
    }

    /// Whether the lookups probe the database's sets (`ProbeSets`); asked once per sender.
    private func probing() throws -> Bool {
        if let probes { return probes }
        let ready = try ProbeSets.ready(using: client)
        probes = ready
        return ready
    }
}
