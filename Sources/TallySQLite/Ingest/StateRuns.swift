/// Ingest state keyed by random ids (page instances, impressions), kept in two runs as `KeyRuns`
/// keeps the idempotency keys (schema version 9): each table `NAME` of a family is
/// `NAME_settled`, large, read only for keys its family's Bloom filter cannot rule out and
/// written only where a key already there changes; and `NAME_recent`, where new keys go. The
/// view `NAME` shows both. All rows of one key of one table are in the same run.
///
/// A writer asks `mayBeSettled` before reading the settled run, writes a key's rows to the run
/// that holds them (a new key to the recent one) and counts the rows it adds with `noteAdded`.
/// The recent run is bounded: once it holds more than `settleAt` rows and more than a
/// `1 / settleFraction` of the settled rows, the commit moves recent rows into the settled
/// tables until it holds three quarters of that bound (`settle`). The rows moved are the next
/// ones in key order after where the last settling stopped (`state_runs.swept_first`,
/// `swept_second`), wrapping round at the end: a sweep over the key space, whose share each
/// commit takes is one ordered pass over a range of the settled tables, so that a settling costs
/// in proportion to the rows the commits since the last one added, not to the store.
final class StateRuns {
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
    /// The least bound of the recent run: a commit settles part of it only above this many rows.
    var settleAt = 300_000
    /// The recent run is bounded by `1 / settleFraction` of the settled rows (when above `settleAt`).
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
    /// The family of the impressions: `impression_slices` by (user, impression).
    static let impressions = ("impressions", [Table(name: "impression_slices", keyColumns: ("user_id", "impression_id"))])

    init(database db: Database, family: (name: String, tables: [Table])) throws {
        database = db
        self.family = family.name
        tables = family.tables
        readRuns = try db.prepare("SELECT settled, recent, generation, swept_first, swept_second FROM state_runs WHERE family = ?")
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

    /// Moves the commit's share of the recent rows into the settled run (see the type's
    /// description); nothing while the recent run is within its bound.
    func settle() throws {
        let runs = try read()
        let bound = max(settleAt, (runs.settled + settleFraction - 1) / settleFraction)
        guard runs.recent > bound else { return }
        try refresh()
        let share = runs.recent - bound * 3 / 4
        var moved = 0
        var from = runs.swept
        // From the start, one pass reaches every recent row; else past the last key the sweep
        // starts again from the first.
        var wrapped = from == nil
        while moved < share {
            let to = try key(after: from, rows: share - moved)
            moved += try move(after: from, through: to)
            from = to
            if to != nil || wrapped { break }
            wrapped = true
        }
        let settled = runs.settled + moved
        if settled > capacity {
            // Outgrown: made anew over every settled key; the old bits go before the new ones are made.
            filter = KeyFilter(capacity: 0)
            filter = try Self.writeFilter(family: family, tables: tables, over: settled, in: database)
            capacity = 2 * settled
        } else {
            try Self.save(filter, family: family, capacity: capacity, in: database)
        }
        let update = try database.prepare("""
            UPDATE state_runs SET settled = ?, recent = recent - ?, generation = generation + 1, swept_first = ?, swept_second = ?
            WHERE family = ?
            """)
        try update.bind([.int(Int64(settled)), .int(Int64(moved)), from.map { .text($0.first) } ?? .null,
                         from.map { .text($0.second) } ?? .null, .text(family)])
        try update.run()
        generation = runs.generation + 1
    }

    /// A family's key: the values of its tables' two key columns.
    typealias Key = (first: String, second: String)

    /// The key of the `rows`-th recent row after `from` (from the first when nil) in key order,
    /// over all the family's tables; nil when fewer rows follow it.
    private func key(after from: Key?, rows: Int) throws -> Key? {
        let keys = tables.map { table in
            let (first, second) = table.keyColumns
            return "SELECT \(first) AS k1, \(second) AS k2 FROM \(table.recent)"
                + (from == nil ? "" : " WHERE (\(first), \(second)) > (?1, ?2)")
        }
        let select = try database.prepare("""
            SELECT k1, k2 FROM (\(keys.joined(separator: " UNION ALL "))) ORDER BY k1, k2 LIMIT 1 OFFSET ?3
            """)
        if let from {
            select.bind(from.first, at: 1)
            select.bind(from.second, at: 2)
        }
        select.bind(Int64(rows - 1), at: 3)
        guard try select.step() else { return nil }
        return (select.text(0) ?? "", select.text(1) ?? "")
    }

    /// Moves the recent rows of every table with keys after `from` (from the first when nil)
    /// through `to` (to the last when nil) into the settled run, in key order, and adds their
    /// keys to the filter. Returns how many rows it moved.
    private func move(after from: Key?, through to: Key?) throws -> Int {
        var moved = 0
        for table in tables {
            let (first, second) = table.keyColumns
            let bounds = [from.map { _ in "(\(first), \(second)) > (?1, ?2)" }, to.map { _ in "(\(first), \(second)) <= (?3, ?4)" }]
                .compactMap { $0 }
            let range = bounds.isEmpty ? "" : " WHERE " + bounds.joined(separator: " AND ")
            // No recent key is settled, so OR IGNORE never applies; it spares SQLite the
            // statement journal, which would hold a copy of every page the move changes.
            let statements = try [
                "INSERT OR IGNORE INTO \(table.settled) SELECT * FROM \(table.recent)\(range) ORDER BY \(first), \(second)",
                "SELECT \(first), \(second) FROM \(table.recent)\(range)",
                "DELETE FROM \(table.recent)\(range)",
            ].map { try database.prepare($0) }
            for statement in statements {
                if let from {
                    statement.bind(from.first, at: 1)
                    statement.bind(from.second, at: 2)
                }
                if let to {
                    statement.bind(to.first, at: 3)
                    statement.bind(to.second, at: 4)
                }
            }
            try statements[0].run()
            moved += database.changes
            try Self.add(from: statements[1], to: &filter, buffer: &keyBytes)
            try statements[2].run()
        }
        return moved
    }

    /// Forgets the filter (the transaction that changed it may have been rolled back).
    func forget() {
        generation = nil
    }

    private func read() throws -> (settled: Int, recent: Int, generation: Int64, swept: Key?) {
        defer { readRuns.reset() }
        guard try readRuns.step() else { throw StoreError.damagedStore(detail: "state_runs has no row for \(family)") }
        let swept = readRuns.isNull(3) ? nil : (readRuns.text(3) ?? "", readRuns.text(4) ?? "")
        return (readRuns.int(0), readRuns.int(1), readRuns.int64(2), swept)
    }

    // MARK: - The filter

    /// Makes and stores the filter over the `settled` rows of `tables`' settled runs, sized for twice as many.
    @discardableResult
    static func writeFilter(family: String, tables: [Table], over settled: Int, in db: Database) throws -> KeyFilter {
        var filter = KeyFilter(capacity: 2 * settled)
        var buffer: [UInt8] = []
        for table in tables {
            let (first, second) = table.keyColumns
            try add(from: db.prepare("SELECT \(first), \(second) FROM \(table.settled)"), to: &filter, buffer: &buffer)
        }
        try save(filter, family: family, capacity: 2 * settled, in: db)
        return filter
    }

    /// Adds the keys `keys` selects (its first two columns) to `filter`.
    private static func add(from keys: Statement, to filter: inout KeyFilter, buffer: inout [UInt8]) throws {
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
