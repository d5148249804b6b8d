/// Keeps `exposure_firsts` and the exposure-count rows current: for every (page instance, item)
/// a batch touches, stores it when new (the usual case: one statement), else reads what is
/// stored, merges the batch in, writes the result and applies the change in its contribution;
/// items and users per group are reference-counted so that `uniqueItems` and `uniqueUsers` stay
/// exact when an earlier event moves a pair to another group.
final class ExposureRollupWriter {
    private let database: Database
    private let readFirst: Statement
    private let insertFirst: Statement
    private let saveFirst: Statement
    private let updateMember: Statement
    private let insertMember: Statement
    private let readMember: Statement
    private let deleteMember: Statement
    private let addGroup: Statement

    init(database db: Database) throws {
        database = db
        readFirst = try db.prepare("""
            SELECT first_ts, first_seq, first_key, user_id, local_date, page_id, model_info, feed_position, events
            FROM exposure_firsts WHERE page_instance_id = ? AND item_id = ?
            """)
        let firstColumns = """
            exposure_firsts (page_instance_id, item_id, first_ts, first_seq, first_key, user_id,
                local_date, page_id, model_info, feed_position, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        insertFirst = try db.prepare("INSERT INTO \(firstColumns) ON CONFLICT (page_instance_id, item_id) DO NOTHING")
        saveFirst = try db.prepare("INSERT OR REPLACE INTO \(firstColumns)")
        let member = "dimension = ? AND group_value = ? AND kind = ? AND member = ?"
        updateMember = try db.prepare("UPDATE exposure_group_members SET pairs = pairs + ? WHERE \(member)")
        insertMember = try db.prepare("INSERT INTO exposure_group_members (pairs, dimension, group_value, kind, member) VALUES (?, ?, ?, ?, ?)")
        readMember = try db.prepare("SELECT pairs FROM exposure_group_members WHERE \(member)")
        deleteMember = try db.prepare("DELETE FROM exposure_group_members WHERE \(member)")
        addGroup = try db.prepare("""
            INSERT INTO exposure_groups (dimension, group_value, exposures, duplicates, unique_items, unique_users)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (dimension, group_value) DO UPDATE SET exposures = exposures + excluded.exposures,
                duplicates = duplicates + excluded.duplicates, unique_items = unique_items + excluded.unique_items,
                unique_users = unique_users + excluded.unique_users
            """)
    }

    func write(_ batch: RollupBatch) throws {
        var deltas = ExposureDeltas()
        for (key, incoming) in batch.firstExposures {
            if try save(key, incoming, with: insertFirst) {
                PairState(first: incoming, item: key.item).contribute(1, to: &deltas)
                continue
            }
            guard let before = try stored(key) else { continue }
            var after = PairState(first: incoming, item: key.item)
            after.first = before.first.order < incoming.order ? before.first : incoming
            after.first.events = before.first.events + incoming.events
            try save(key, after.first, with: saveFirst)
            before.contribute(-1, to: &deltas)
            after.contribute(1, to: &deltas)
        }
        for (member, change) in deltas.members where change != 0 {
            let crossing = try apply(change, to: member)
            if crossing != 0 {
                if member.kind == .item {
                    deltas.groups[member.group, default: ExposureDeltas.Counters()].uniqueItems += crossing
                } else {
                    deltas.groups[member.group, default: ExposureDeltas.Counters()].uniqueUsers += crossing
                }
            }
        }
        for (group, counters) in deltas.groups where !counters.isZero {
            addGroup.bind(group.dimension.rawValue, at: 1)
            try addGroup.bind(group.value, at: 2)
            addGroup.bind(Int64(counters.exposures), at: 3)
            addGroup.bind(Int64(counters.duplicates), at: 4)
            addGroup.bind(Int64(counters.uniqueItems), at: 5)
            addGroup.bind(Int64(counters.uniqueUsers), at: 6)
            try addGroup.run()
        }
    }

    /// Adds `change` to a member's pair count: 1 when the member joins its group, -1 when it
    /// leaves, else 0. Increments, by far the usual case, cost one statement.
    private func apply(_ change: Int, to member: ExposureDeltas.Member) throws -> Int {
        try bind(member, to: updateMember, from: 2)
        updateMember.bind(Int64(change), at: 1)
        try updateMember.run()
        if database.changes == 0 {
            try bind(member, to: insertMember, from: 2)
            insertMember.bind(Int64(change), at: 1)
            try insertMember.run()
            return 1
        }
        guard change < 0 else { return 0 }
        try bind(member, to: readMember, from: 1)
        let left = try readMember.step() ? readMember.int(0) : 0
        readMember.reset()
        guard left == 0 else { return 0 }
        try bind(member, to: deleteMember, from: 1)
        try deleteMember.run()
        return -1
    }

    /// Binds a member's key (dimension, group value, kind, member) from parameter `index` on.
    private func bind(_ member: ExposureDeltas.Member, to statement: Statement, from index: Int32) throws {
        statement.bind(member.group.dimension.rawValue, at: index)
        try statement.bind(member.group.value, at: index + 1)
        statement.bind(member.kind.rawValue, at: index + 2)
        statement.bind(member.member, at: index + 3)
    }

    /// Runs `statement` (an insert into `exposure_firsts`) for `first`; true when it stored a row.
    @discardableResult
    private func save(_ key: RollupBatch.PageItem, _ first: RollupBatch.FirstExposure, with statement: Statement) throws -> Bool {
        statement.bind(key.pageInstance, at: 1)
        statement.bind(key.item, at: 2)
        statement.bind(first.order.timestampMs, at: 3)
        statement.bind(first.order.sequence, at: 4)
        statement.bind(first.order.key, at: 5)
        statement.bind(first.user, at: 6)
        statement.bind(first.localDate, at: 7)
        statement.bind(first.pageId, at: 8)
        statement.bind(first.modelInfo, at: 9)
        statement.bind(first.feedPosition.map(Int64.init), at: 10)
        statement.bind(Int64(first.events), at: 11)
        try statement.run()
        return database.changes == 1
    }

    private func stored(_ key: RollupBatch.PageItem) throws -> PairState? {
        readFirst.bind(key.pageInstance, at: 1)
        readFirst.bind(key.item, at: 2)
        defer { readFirst.reset() }
        guard try readFirst.step() else { return nil }
        let r = readFirst
        return PairState(first: RollupBatch.FirstExposure(
            order: OrderKey(timestampMs: r.int64(0), sequence: r.int64(1), key: r.text(2) ?? ""), user: r.text(3) ?? "",
            localDate: r.text(4) ?? "", pageId: r.text(5), modelInfo: r.text(6), feedPosition: r.isNull(7) ? nil : r.int(7),
            events: r.int(8)), item: key.item)
    }
}
