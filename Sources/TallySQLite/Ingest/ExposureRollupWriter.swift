import TallyIngest

/// Keeps `exposure_firsts` and the exposure-count rows current: for every (page instance, item)
/// a batch touches, stores it when new (the usual case: one statement), else reads what is
/// stored, merges the batch in, writes the result and applies the change in its contribution.
/// When every pair is new and the batch carries an `ExposurePlan`, the plan's counts and
/// distinct members stand for the pairs' contributions.
///
/// `uniqueItems` and `uniqueUsers` are kept exact by one `exposure_group_members` row per item
/// or user a group holds, stored when the member first joins; a member this writer knows to be
/// stored costs no statement at all. A member leaves a group only when a pair moves to another
/// group (an earlier exposure of the pair arrives late, a client bug): then, once per batch
/// with such moves, one pass over `exposure_firsts` tells which of the groups left still hold
/// the member through another pair.
///
/// `exposure_firsts` is in the two runs of `StateRuns.exposurePairs`: a new pair goes to the
/// recent run, a stored one is read and saved again in the run that holds it.
final class ExposureRollupWriter {
    /// Most members remembered as stored; past it the memory starts over (correct either way:
    /// a member not remembered costs one `INSERT ... DO NOTHING`). About 60 bytes each.
    static let knownCapacity = 600_000

    private let database: Database
    private let runs: StateRuns
    private let readFirst: [Statement]
    private let insertFirst: Statement
    private let saveFirst: [Statement]
    private let insertMember: Statement
    private let deleteMember: Statement
    private let allFirsts: Statement
    private let dataVersion: Statement
    private let addGroup: Statement
    /// Members known to be stored, valid while no other connection has written (`data_version`).
    private var known: Set<ExposureDeltas.Member> = []
    private var knownVersion: Int64?
    /// Passes over `exposure_firsts` made for pairs that moved (a figure for tests).
    private(set) var passesOverPairs = 0

    init(database db: Database, runs: StateRuns) throws {
        database = db
        self.runs = runs
        let tables = [StateRuns.Run.recent, .settled].map { runs.name(0, $0) }
        readFirst = try tables.map {
            try db.prepare("""
                SELECT first_ts, first_seq, first_key, user_id, local_date, page_id, model_info, feed_position, events,
                       platform, app_version
                FROM \($0) WHERE page_instance_id = ? AND item_id = ?
                """)
        }
        let firstColumns = """
            (page_instance_id, item_id, first_ts, first_seq, first_key, user_id, local_date, page_id, model_info,
                feed_position, events, platform, app_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        insertFirst = try db.prepare("INSERT INTO \(tables[0]) \(firstColumns) ON CONFLICT (page_instance_id, item_id) DO NOTHING")
        saveFirst = try tables.map { try db.prepare("INSERT OR REPLACE INTO \($0) \(firstColumns)") }
        insertMember = try db.prepare("""
            INSERT INTO exposure_group_members (dimension, group_value, kind, member) VALUES (?, ?, ?, ?)
            ON CONFLICT (dimension, group_value, kind, member) DO NOTHING
            """)
        deleteMember = try db.prepare("DELETE FROM exposure_group_members WHERE dimension = ? AND group_value = ? AND kind = ? AND member = ?")
        allFirsts = try db.prepare("SELECT item_id, user_id, local_date, page_id, model_info, feed_position FROM exposure_firsts")
        dataVersion = try db.prepare("PRAGMA data_version")
        addGroup = try db.prepare("""
            INSERT INTO exposure_groups (dimension, group_value, exposures, duplicates, unique_items, unique_users)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (dimension, group_value) DO UPDATE SET exposures = exposures + excluded.exposures,
                duplicates = duplicates + excluded.duplicates, unique_items = unique_items + excluded.unique_items,
                unique_users = unique_users + excluded.unique_users
            """)
    }

    /// Writes the batch's pairs; returns those it found stored, as they were before it.
    func write(_ batch: RollupBatch) throws -> [PageItem: RollupBatch.FirstExposure] {
        try checkKnown()
        var deltas = ExposureDeltas()
        var joined: [ExposureDeltas.Member] = []
        var left: Set<ExposureDeltas.Member> = []
        var storedBefore: [PageItem: StateRuns.Run] = [:]
        var found: [PageItem: RollupBatch.FirstExposure] = [:]
        for (key, incoming) in batch.firstExposures {
            if runs.mayBeSettled(key.pageInstance, key.item), try stored(key, in: .settled) != nil {
                storedBefore[key] = .settled
            } else if try !save(key, incoming, with: insertFirst) {
                storedBefore[key] = .recent
            }
        }
        try runs.noteAdded(batch.firstExposures.count - storedBefore.count)
        if storedBefore.isEmpty, let plan = batch.exposurePlan {
            deltas.groups = plan.groups
            for member in plan.members {
                try join(member, into: &joined)
            }
        } else {
            try contribute(batch.firstExposures, storedBefore: storedBefore, to: &deltas, joined: &joined, left: &left,
                           found: &found)
        }
        for member in joined {
            deltas.groups[member.group, default: ExposureDeltas.Counters()].count(member.kind, 1)
        }
        if !left.isEmpty {
            for member in try unheld(left) {
                try bind(member, to: deleteMember)
                try deleteMember.run()
                deltas.groups[member.group, default: ExposureDeltas.Counters()].count(member.kind, -1)
                known.remove(member)
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
        return found
    }

    /// Adds each pair's contribution to `deltas`: a new pair's as it is, a pair of
    /// `storedBefore` merged with what is stored (saved again, its old contribution taken back,
    /// the members of groups it leaves put in `left`, what was stored in `found`); members that
    /// join go to `joined`.
    private func contribute(_ pairs: [PageItem: FirstExposure], storedBefore: [PageItem: StateRuns.Run],
                            to deltas: inout ExposureDeltas, joined: inout [ExposureDeltas.Member],
                            left: inout Set<ExposureDeltas.Member>, found: inout [PageItem: FirstExposure]) throws {
        for (key, incoming) in pairs {
            guard let run = storedBefore[key] else {
                try PairState(first: incoming, item: key.item).contribute(1, to: &deltas) { try join($0, into: &joined) }
                continue
            }
            guard let before = try stored(key, in: run) else { continue }
            found[key] = before.first
            let after = PairState(first: before.first.merging(incoming), item: key.item)
            try save(key, after.first, with: saveFirst[run.rawValue])
            var leaving: Set<ExposureDeltas.Member> = []
            before.contribute(-1, to: &deltas) { leaving.insert($0) }
            try after.contribute(1, to: &deltas) {
                leaving.remove($0)
                try join($0, into: &joined)
            }
            left.formUnion(leaving)
        }
    }

    /// Forgets the members remembered as stored (the transaction that stored some of them was
    /// rolled back).
    func forget() {
        known.removeAll()
        knownVersion = nil
    }

    /// Starts the memory of stored members over when another connection has committed since
    /// this one last looked (it may have removed members).
    private func checkKnown() throws {
        defer { dataVersion.reset() }
        let version = try dataVersion.step() ? dataVersion.int64(0) : 0
        if version != knownVersion {
            known.removeAll(keepingCapacity: true)
            knownVersion = version
        }
    }

    /// Stores `member` unless it is known to be stored; appends it to `joined` when it is new in its group.
    private func join(_ member: ExposureDeltas.Member, into joined: inout [ExposureDeltas.Member]) throws {
        if known.count >= Self.knownCapacity {
            known.removeAll(keepingCapacity: true)
        }
        guard known.insert(member).inserted else { return }
        try bind(member, to: insertMember)
        try insertMember.run()
        if database.changes == 1 {
            joined.append(member)
        }
    }

    /// The members of `leaving` that no stored pair holds any more (one pass over the pairs,
    /// those of this batch included).
    private func unheld(_ leaving: Set<ExposureDeltas.Member>) throws -> Set<ExposureDeltas.Member> {
        passesOverPairs += 1
        var unheld = leaving
        let dimensions = Set(leaving.map(\.group.dimension))
        defer { allFirsts.reset() }
        while !unheld.isEmpty, try allFirsts.step() {
            let r = allFirsts
            let pair = PairState(first: RollupBatch.FirstExposure(
                order: OrderKey(timestampMs: 0, sequence: 0, key: ""), user: r.text(1) ?? "", localDate: r.text(2) ?? "",
                pageId: r.text(3), modelInfo: r.text(4), feedPosition: r.isNull(5) ? nil : r.int(5), events: 1),
                item: r.text(0) ?? "")
            for dimension in dimensions {
                pair.forEachMember(of: ExposureDeltas.Group(dimension: dimension, value: pair.value(dimension))) {
                    unheld.remove($0)
                }
            }
        }
        return unheld
    }

    /// Binds a member's key (dimension, group value, kind, member) to parameters 1 to 4.
    private func bind(_ member: ExposureDeltas.Member, to statement: Statement) throws {
        statement.bind(member.group.dimension.rawValue, at: 1)
        try statement.bind(member.group.value, at: 2)
        statement.bind(member.kind.rawValue, at: 3)
        statement.bind(member.member, at: 4)
    }

    /// Runs `statement` (an insert into `exposure_firsts`) for `first`; true when it stored a row.
    @discardableResult
    private func save(_ key: PageItem, _ first: RollupBatch.FirstExposure, with statement: Statement) throws -> Bool {
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
        statement.bind(first.platform, at: 12)
        statement.bind(first.appVersion, at: 13)
        try statement.run()
        return database.changes == 1
    }

    private func stored(_ key: PageItem, in run: StateRuns.Run) throws -> PairState? {
        let readFirst = readFirst[run.rawValue]
        readFirst.bind(key.pageInstance, at: 1)
        readFirst.bind(key.item, at: 2)
        defer { readFirst.reset() }
        guard try readFirst.step() else { return nil }
        let r = readFirst
        return PairState(first: RollupBatch.FirstExposure(
            order: OrderKey(timestampMs: r.int64(0), sequence: r.int64(1), key: r.text(2) ?? ""), user: r.text(3) ?? "",
            localDate: r.text(4) ?? "", pageId: r.text(5), modelInfo: r.text(6), feedPosition: r.isNull(7) ? nil : r.int(7),
            platform: r.text(9), appVersion: r.text(10), events: r.int(8)), item: key.item)
    }
}
