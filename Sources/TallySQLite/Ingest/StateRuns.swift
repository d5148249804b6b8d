/// Ingest state keyed by random ids (page instances, impressions), kept in two runs as `KeyRuns`
/// keeps the idempotency keys (schema version 9): each table `NAME` of a family is
/// `NAME_settled`, large, read only for keys its family's Bloom filter cannot rule out and
/// written only where a key already there changes; and `NAME_recent`, where new keys go. The
/// view `NAME` shows both. All rows of one key of one table are in the same run.
///
/// A writer asks `mayBeSettled` before reading the settled run, writes a key's rows to the run
/// that holds them (a new key to the recent one) and counts the rows it adds with `noteAdded`.
/// The recent rows are due to settle once they number `settleAt` or more and at least a
/// `1 / settleFraction` of the settled rows; a commit then moves them into the settled tables
/// in key order (`settle`, see `SettlingRun`): what a batch writes at random stays in a run of
/// bounded size, and each settling is one ordered pass over the settled tables.
final class StateRuns: SettlingRun {
    /// One table of a family: its name (the view) and its key columns.
    struct Table {
        var name: String
        var keyColumns: (String, String)

        var settled: String { name + "_settled" }
        var recent: String { name + "_recent" }
    }

    /// Which run holds (or is to hold) a key's rows.
    enum Run: Int {
        case recent, settled
    }

    /// The family's name in `state_runs` and `state_run_filters`.
    let family: String
    /// The family's tables; the keys of all of them go into one filter.
    let tables: [Table]
    /// The fewest recent rows that are settled.
    var settleAt = 300_000
    /// Recent rows are settled once they are at least this fraction of the settled ones.
    var settleFraction = 4

    private let database: Database
    private let readRuns: Statement
    private let addRows: [Statement]
    private var filter = KeyFilter(capacity: 0)
    private var capacity = 0
    private var generation: Int64?
    private var keyBytes: [UInt8] = []

    /// The family of the exposure pairs: `exposure_firsts` by (page instance, item).
    static let exposurePairs = ("exposure_pairs", [Table(name: "exposure_firsts", keyColumns: ("page_instance_id", "item_id"))])
    /// The family of the impressions: `impression_slices` and `impression_exposures` by (user, impression).
    static let impressions = ("impressions", [
        Table(name: "impression_slices", keyColumns: ("user_id", "impression_id")),
        Table(name: "impression_exposures", keyColumns: ("user_id", "impression_id")),
    ])

    init(database db: Database, family: (name: String, tables: [Table])) throws {
        database = db
        self.family = family.name
        tables = family.tables
        readRuns = try db.prepare("SELECT settled, recent, generation FROM state_runs WHERE family = ?")
        readRuns.bind(family.name, at: 1)
        addRows = try ["recent", "settled"].map {
            let add = try db.prepare("UPDATE state_runs SET \($0) = \($0) + ? WHERE family = ?")
            add.bind(family.name, at: 2)
            return add
        }
    }

    /// The name of `table`'s run `run`.
    func name(_ table: Int, _ run: Run) -> String {
        run == .recent ? tables[table].recent : tables[table].settled
    }

    /// Reads the filter again when another connection has settled rows since it was read. Call
    /// in the write transaction, before `mayBeSettled`.
    func refresh() throws {
        let runs = try read()
        guard runs.generation != generation else { return }
        let stored = try database.prepare("SELECT capacity, bits FROM state_run_filters WHERE family = ?")
        stored.bind(family, at: 1)
        guard try stored.step() else { throw StoreError.damagedStore(detail: "state_run_filters has no row for \(family)") }
        capacity = stored.int(0)
        filter = stored.withBlob(1) { KeyFilter(bytes: $0) }
        generation = runs.generation
    }

    /// False when the settled run certainly holds no row of the key (`first`, `second`).
    func mayBeSettled(_ first: String, _ second: String) -> Bool {
        Self.withKey(first.utf8, second.utf8, buffer: &keyBytes) { filter.mayContain($0) }
    }

    /// Counts `count` rows added to run `run`.
    func noteAdded(_ count: Int, to run: Run = .recent) throws {
        guard count > 0 else { return }
        addRows[run.rawValue].bind(Int64(count), at: 1)
        try addRows[run.rawValue].run()
    }

    func overdue() throws -> Double? {
        let runs = try read()
        let due = max(settleAt, (runs.settled + settleFraction - 1) / settleFraction)
        return runs.recent >= due ? Double(runs.recent) / Double(due) : nil
    }

    /// Moves the recent rows into the settled run (see the type's description).
    func settle() throws {
        let runs = try read()
        try refresh()
        let settled = runs.settled + runs.recent
        for table in tables {
            let (first, second) = table.keyColumns
            // No recent key is settled, so OR IGNORE never applies; it spares SQLite the
            // statement journal, which would hold a copy of every page the merge changes.
            try database.execute("""
                INSERT OR IGNORE INTO \(table.settled) SELECT * FROM \(table.recent) ORDER BY \(first), \(second)
                """)
        }
        if settled > capacity {
            filter = KeyFilter(capacity: 0)  // the old bits go before the new ones are made
            filter = try Self.writeFilter(family: family, tables: tables, over: settled, in: database)
            capacity = 2 * settled
        } else {
            for table in tables {
                try Self.add(table, run: .recent, to: &filter, in: database)
            }
            try Self.save(filter, family: family, capacity: capacity, in: database)
        }
        for table in tables {
            try database.execute("DELETE FROM \(table.recent)")
        }
        try database.execute("""
            UPDATE state_runs SET settled = \(settled), recent = 0, generation = generation + 1 WHERE family = '\(family)'
            """)
        generation = runs.generation + 1
    }

    /// Forgets the filter (the transaction that changed it may have been rolled back).
    func forget() {
        generation = nil
    }

    private func read() throws -> (settled: Int, recent: Int, generation: Int64) {
        defer { readRuns.reset() }
        guard try readRuns.step() else { throw StoreError.damagedStore(detail: "state_runs has no row for \(family)") }
        return (readRuns.int(0), readRuns.int(1), readRuns.int64(2))
    }

    // MARK: - The filter

    /// Makes and stores the filter over the `settled` rows of `tables`' settled runs, sized for twice as many.
    @discardableResult
    static func writeFilter(family: String, tables: [Table], over settled: Int, in db: Database) throws -> KeyFilter {
        var filter = KeyFilter(capacity: 2 * settled)
        for table in tables {
            try add(table, run: .settled, to: &filter, in: db)
        }
        try save(filter, family: family, capacity: 2 * settled, in: db)
        return filter
    }

    private static func add(_ table: Table, run: Run, to filter: inout KeyFilter, in db: Database) throws {
        let (first, second) = table.keyColumns
        let keys = try db.prepare("SELECT \(first), \(second) FROM \(run == .recent ? table.recent : table.settled)")
        var buffer: [UInt8] = []
        // The stored UTF-8 as it is, without making a string of each key (a settling that
        // grows the filter reads every settled key).
        while try keys.step() {
            keys.withBlob(0) { first in
                keys.withBlob(1) { second in
                    withKey(first, second, buffer: &buffer) { filter.insert($0) }
                }
            }
        }
    }

    private static func save(_ filter: KeyFilter, family: String, capacity: Int, in db: Database) throws {
        let save = try db.prepare("INSERT OR REPLACE INTO state_run_filters (family, capacity, bits) VALUES (?, ?, ?)")
        save.bind(family, at: 1)
        save.bind(Int64(capacity), at: 2)
        try filter.withBytes { bits in
            save.bindBlob(bits, at: 3, copying: false)
            try save.run()
        }
    }

    /// Calls `body` with the filter's bytes of the key (`first`, `second`): their UTF-8 with a
    /// 0xFF byte, which UTF-8 never holds, between them.
    private static func withKey<First: Sequence<UInt8>, Second: Sequence<UInt8>, T>(
        _ first: First, _ second: Second, buffer: inout [UInt8], _ body: (UnsafeRawBufferPointer) -> T
    ) -> T {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: first)
        buffer.append(0xFF)
        buffer.append(contentsOf: second)
        return buffer.withUnsafeBytes(body)
    }
}
