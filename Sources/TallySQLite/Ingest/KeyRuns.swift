/// The stored idempotency keys, in two runs (schema version 6): `event_keys`, settled, large
/// and only read while claiming, with a Bloom filter (`KeyFilter`) kept beside it; and
/// `event_keys_recent`, where new keys go. Every stored key is in exactly one of them.
///
/// A key is claimed by asking the filter whether the settled run may hold it (a read of that
/// run only when it may) and inserting it into the recent run. Once the recent run holds
/// `settleAt` keys or more and at least half as many as the settled one, `settle` moves
/// it into the settled run in key order and brings the filter up to date, in the transaction
/// of the commit that asks: what a batch writes at random stays in a run a fraction of the
/// store's size, and each key is moved about twice over its life.
final class KeyRuns {
    private let database: Database
    private let probeSettled: Statement
    private let claimRecent: Statement
    private let readRuns: Statement
    private let addRecent: Statement
    private var filter = KeyFilter(capacity: 0)
    /// The keys `filter` was made for.
    private var capacity = 0
    /// The generation of the runs `filter` belongs to; nil when it must be read again.
    private var generation: Int64?
    /// The fewest recent keys that are settled (see the type's description).
    var settleAt = 1_000_000

    init(database db: Database) throws {
        database = db
        probeSettled = try db.prepare("SELECT 1 FROM event_keys WHERE key = ?")
        claimRecent = try db.prepare("INSERT OR IGNORE INTO event_keys_recent (key) VALUES (?)")
        readRuns = try db.prepare("SELECT settled, recent, generation FROM event_key_runs WHERE id = 1")
        addRecent = try db.prepare("UPDATE event_key_runs SET recent = recent + ? WHERE id = 1")
    }

    /// Reads the filter again when another connection has settled keys since it was read.
    /// Call in the write transaction, before `claim`.
    func refresh() throws {
        let runs = try read()
        guard runs.generation != generation else { return }
        let stored = try database.prepare("SELECT capacity, bits FROM event_key_filter WHERE id = 1")
        guard try stored.step() else { throw StoreError.damagedStore(detail: "event_key_filter has no row") }
        capacity = stored.int(0)
        filter = stored.withBlob(1) { KeyFilter(bytes: $0) }
        generation = runs.generation
    }

    /// Claims `key`: true when it was stored in neither run (it is in the recent run now).
    @inline(__always)
    func claim(_ key: UnsafeRawBufferPointer) throws -> Bool {
        if filter.mayContain(key) {
            probeSettled.bindBlob(key, at: 1)
            defer { probeSettled.reset() }
            if try probeSettled.step() { return false }
        }
        claimRecent.bindBlob(key, at: 1)
        try claimRecent.step()
        claimRecent.reset()
        return database.changes == 1
    }

    /// Counts `count` keys claimed into the recent run.
    func noteClaimed(_ count: Int) throws {
        guard count > 0 else { return }
        addRecent.bind(Int64(count), at: 1)
        try addRecent.run()
    }

    /// Moves the recent run into the settled one once it is due (see the type's description).
    func settle() throws {
        let runs = try read()
        guard runs.recent >= max(settleAt, (runs.settled + 1) / 2) else { return }
        try refresh()
        // No recent key is settled, so OR IGNORE never applies; it spares SQLite the statement
        // journal, which would hold a copy of every page of `event_keys` the merge changes.
        try database.execute("INSERT OR IGNORE INTO event_keys (key) SELECT key FROM event_keys_recent ORDER BY key")
        let settled = runs.settled + runs.recent
        if settled > capacity {
            filter = KeyFilter(capacity: 0)  // the old bits go before the new ones are made
            filter = try Self.writeFilter(over: settled, in: database)
            capacity = 2 * settled
        } else {
            try Self.add("SELECT key FROM event_keys_recent", to: &filter, in: database)
            try Self.save(filter, capacity: capacity, in: database)
        }
        try database.execute("""
            DELETE FROM event_keys_recent;
            UPDATE event_key_runs SET settled = \(settled), recent = 0, generation = generation + 1 WHERE id = 1;
            """)
        generation = runs.generation + 1
    }

    /// Forgets the filter (the transaction that changed it may have been rolled back).
    func forget() {
        generation = nil
    }

    private func read() throws -> (settled: Int, recent: Int, generation: Int64) {
        defer { readRuns.reset() }
        guard try readRuns.step() else { throw StoreError.damagedStore(detail: "event_key_runs has no row") }
        return (readRuns.int(0), readRuns.int(1), readRuns.int64(2))
    }

    /// Makes and stores a filter over the `settled` keys of `event_keys`, sized for twice as many.
    @discardableResult
    static func writeFilter(over settled: Int, in db: Database) throws -> KeyFilter {
        var filter = KeyFilter(capacity: 2 * settled)
        try add("SELECT key FROM event_keys", to: &filter, in: db)
        try save(filter, capacity: 2 * settled, in: db)
        return filter
    }

    private static func add(_ sql: String, to filter: inout KeyFilter, in db: Database) throws {
        let keys = try db.prepare(sql)
        while try keys.step() {
            keys.withBlob(0) { filter.insert($0) }
        }
    }

    private static func save(_ filter: KeyFilter, capacity: Int, in db: Database) throws {
        let save = try db.prepare("INSERT OR REPLACE INTO event_key_filter (id, capacity, bits) VALUES (1, ?, ?)")
        save.bind(Int64(capacity), at: 1)
        try filter.withBytes { bits in
            save.bindBlob(bits, at: 2, copying: false)
            try save.run()
        }
    }
}
