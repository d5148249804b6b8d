/// Keeps `exposure_firsts` and the exposure-count rows current: for every (page instance, item)
/// a batch touches, reads what is stored, merges the batch in, writes the result and applies
/// the change in its contribution; items and users per group are reference-counted so that
/// `uniqueItems` and `uniqueUsers` stay exact when an earlier event moves a pair to another group.
final class ExposureRollupWriter {
    private let database: Database
    private let readFirst: Statement
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
        saveFirst = try db.prepare("""
            INSERT OR REPLACE INTO exposure_firsts (page_instance_id, item_id, first_ts, first_seq, first_key, user_id,
                local_date, page_id, model_info, feed_position, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
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
            let before = try stored(key)
            var after = PairState(first: incoming, item: key.item)
            if let before {
                after.first = before.first.order < incoming.order ? before.first : incoming
                after.first.events = before.first.events + incoming.events
            }
            try saveFirst.bind([
                .text(key.pageInstance), .text(key.item), .int(after.first.order.timestampMs), .int(after.first.order.sequence),
                .text(after.first.order.key), .text(after.first.user), .text(after.first.localDate),
                after.first.pageId.map { .text($0) } ?? .null, after.first.modelInfo.map { .text($0) } ?? .null,
                after.first.feedPosition.map { .int(Int64($0)) } ?? .null, .int(Int64(after.first.events)),
            ])
            try saveFirst.run()
            before?.contribute(-1, to: &deltas)
            after.contribute(1, to: &deltas)
        }
        for (member, change) in deltas.members where change != 0 {
            let crossing = try apply(change, to: member)
            if crossing != 0 {
                if member.kind == "item" {
                    deltas.groups[member.group, default: ExposureDeltas.Counters()].uniqueItems += crossing
                } else {
                    deltas.groups[member.group, default: ExposureDeltas.Counters()].uniqueUsers += crossing
                }
            }
        }
        for (group, counters) in deltas.groups where !counters.isZero {
            try addGroup.bind([.text(group.dimension.rawValue), group.value, .int(Int64(counters.exposures)),
                               .int(Int64(counters.duplicates)), .int(Int64(counters.uniqueItems)), .int(Int64(counters.uniqueUsers))])
            try addGroup.run()
        }
    }

    /// Adds `change` to a member's pair count: 1 when the member joins its group, -1 when it
    /// leaves, else 0. Increments, by far the usual case, cost one statement.
    private func apply(_ change: Int, to member: ExposureDeltas.Member) throws -> Int {
        let keys: [SQLValue] = [.text(member.group.dimension.rawValue), member.group.value, .text(member.kind), .text(member.member)]
        try updateMember.bind([.int(Int64(change))] + keys)
        try updateMember.run()
        if database.changes == 0 {
            try insertMember.bind([.int(Int64(change))] + keys)
            try insertMember.run()
            return 1
        }
        guard change < 0 else { return 0 }
        try readMember.bind(keys)
        let left = try readMember.step() ? readMember.int(0) : 0
        readMember.reset()
        guard left == 0 else { return 0 }
        try deleteMember.bind(keys)
        try deleteMember.run()
        return -1
    }

    private func stored(_ key: RollupBatch.PageItem) throws -> PairState? {
        try readFirst.bind([.text(key.pageInstance), .text(key.item)])
        defer { readFirst.reset() }
        guard try readFirst.step() else { return nil }
        let r = readFirst
        return PairState(first: RollupBatch.FirstExposure(
            order: OrderKey(timestampMs: r.int64(0), sequence: r.int64(1), key: r.text(2) ?? ""), user: r.text(3) ?? "",
            localDate: r.text(4) ?? "", pageId: r.text(5), modelInfo: r.text(6), feedPosition: r.isNull(7) ? nil : r.int(7),
            events: r.int(8)), item: key.item)
    }
}
