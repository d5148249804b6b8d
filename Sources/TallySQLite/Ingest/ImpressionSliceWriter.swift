import TallyIngest

/// Keeps the per-impression state current (`impression_slices`, `TallySchema.v14`): for every
/// (user, impression) a batch touches, stores it when new with one (slice, group) (the usual
/// case: one statement), else reads what is stored, merges the batch in, writes the result and
/// applies the change in its contribution to the (slice, model, position, user) counters of
/// `model_position_user_days`, their sums per (slice, model, user) in `model_user_days`, and both
/// summed over the dates in `model_position_users` and `model_users`. The change in its
/// contribution to the counters without filters (`dislike_groups`) it returns, for
/// `FeedRollupWriter`.
///
/// `impression_slices` is the table of `StateRuns.impressions`; without runs (a migration
/// filling the tables) the writer writes the settled run only, and its caller makes the run's
/// filter.
final class ImpressionSliceWriter {
    private let database: Database
    private let runs: StateRuns?
    private let insertNew: Statement
    private let saveState: [Statement]
    private let readState: [Statement]
    private let readSpanning: Statement
    private let deleteSpanning: Statement
    private let insertSpanning: Statement
    /// `model_user_days`, `model_position_user_days`, `model_position_users` and `model_users`.
    private let cellTables: [CellTable]
    private let addModelDay: Statement

    init(database db: Database, runs: StateRuns?) throws {
        database = db
        self.runs = runs
        let tables = [StateRuns.Run.recent, .settled].map { runs?.name(0, $0) ?? StateRuns.impressions.1[0].settled }
        let stateColumns = """
            (user_id, impression_id, spans, local_date, platform, app_version, model_info, feed_position, exposed,
                reaction_ts, reaction_key, feedback_type, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        insertNew = try db.prepare("INSERT INTO \(tables[0]) \(stateColumns) ON CONFLICT (user_id, impression_id) DO NOTHING")
        saveState = try tables.map { try db.prepare("INSERT OR REPLACE INTO \($0) \(stateColumns)") }
        let factColumns = """
            local_date, platform, app_version, model_info, feed_position, exposed, reaction_ts, reaction_key, feedback_type, reason
            """
        readState = try tables.map {
            try db.prepare("SELECT spans, \(factColumns) FROM \($0) WHERE user_id = ? AND impression_id = ?")
        }
        readSpanning = try db.prepare("SELECT 1, \(factColumns) FROM spanning_impression_slices WHERE user_id = ? AND impression_id = ?")
        deleteSpanning = try db.prepare("DELETE FROM spanning_impression_slices WHERE user_id = ? AND impression_id = ?")
        insertSpanning = try db.prepare("""
            INSERT INTO spanning_impression_slices (user_id, impression_id, \(factColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        cellTables = try [
            CellTable(name: "model_user_days", dated: true, positioned: false, in: db),
            CellTable(name: "model_position_user_days", dated: true, positioned: true, in: db),
            CellTable(name: "model_position_users", dated: false, positioned: true, in: db),
            CellTable(name: "model_users", dated: false, positioned: false, in: db),
        ]
        addModelDay = try db.prepare("""
            INSERT INTO model_days (model_info, feed_position, local_date, platform, app_version) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (model_info, feed_position, local_date, platform, app_version) DO NOTHING
            """)
    }

    /// Writes the batch; returns the change it makes in the counters without filters.
    @discardableResult
    func write(_ batch: SliceBatch) throws -> DislikeDeltas {
        var cells: [ImpressionSlices.Cell: DislikeDeltas.Counters] = [:]
        var deltas = DislikeDeltas()
        var added = 0
        for (key, incoming) in batch.impressions {
            var run = StateRuns.Run.recent
            var before = ImpressionSlices()
            if runs?.mayBeSettled(key.user, key.impression) == true, let settled = try stored(key, in: .settled) {
                run = .settled
                before = settled
            } else if !incoming.spans, try store(key, incoming, with: insertNew) {
                added += 1
                incoming.contribute(1, user: key.user, to: &cells)
                incoming.contribute(1, to: &deltas)
                continue
            } else if let recent = try stored(key, in: .recent) {
                before = recent
            } else {
                added += 1
            }
            let after = before.merging(incoming)
            guard after != before else { continue }
            try store(key, after, with: saveState[run.rawValue])
            if before.spans {
                bind(key, to: deleteSpanning)
                try deleteSpanning.run()
            }
            if after.spans {
                for (slice, fact) in after.facts {
                    bind(key, to: insertSpanning)
                    bind(slice, fact, to: insertSpanning, from: 3)
                    try insertSpanning.run()
                }
            }
            before.contribute(-1, user: key.user, to: &cells)
            after.contribute(1, user: key.user, to: &cells)
            before.contribute(-1, to: &deltas)
            after.contribute(1, to: &deltas)
        }
        let modelCells = Self.summed(cells) { $0.key.feedPosition = nil }
        try cellTables[0].write(modelCells)
        try cellTables[1].write(cells)
        try cellTables[2].write(Self.summed(cells) { $0.key.slice.localDate = "" })
        try cellTables[3].write(Self.summed(modelCells) { $0.key.slice.localDate = "" })
        for key in batch.modelSlices {
            addModelDay.bind(key.modelInfo, at: 1)
            try addModelDay.bind(key.feedPosition.map { .int(Int64($0)) } ?? .emptyBlob, at: 2)
            try bind(key.slice, to: addModelDay, from: 3)
            try addModelDay.run()
        }
        try runs?.noteAdded(added)
        return deltas
    }

    /// `cells` summed over what `coarsen` leaves out of their keys.
    private static func summed(_ cells: [ImpressionSlices.Cell: DislikeDeltas.Counters],
                               _ coarsen: (inout ImpressionSlices.Cell) -> Void) -> [ImpressionSlices.Cell: DislikeDeltas.Counters] {
        var sums: [ImpressionSlices.Cell: DislikeDeltas.Counters] = [:]
        for (cell, counters) in cells {
            var coarse = cell
            coarsen(&coarse)
            if sums[coarse]?.add(counters) == nil {
                sums[coarse] = counters
            }
        }
        return sums
    }

    /// Runs `statement` (an insert into `impression_slices`) for `state`: its one fact, or
    /// `spans` and no fact. True when it stored a row.
    @discardableResult
    private func store(_ key: UserImpression, _ state: ImpressionSlices, with statement: Statement) throws -> Bool {
        bind(key, to: statement)
        statement.bind(Int64(state.spans ? 1 : 0), at: 3)
        if let only = state.only {
            bind(only.key, only.fact, to: statement, from: 4)
        } else {
            for index in Int32(4)...13 { try statement.bind(.null, at: index) }
        }
        try statement.run()
        return database.changes == 1
    }

    /// What run `run` holds of `key` (nil when it holds nothing).
    private func stored(_ key: UserImpression, in run: StateRuns.Run) throws -> ImpressionSlices? {
        var state = ImpressionSlices()
        let readState = readState[run.rawValue]
        bind(key, to: readState)
        defer { readState.reset() }
        guard try readState.step() else { return nil }
        guard readState.int64(0) == 1 else {
            Self.add(readState, to: &state)
            return state
        }
        bind(key, to: readSpanning)
        defer { readSpanning.reset() }
        while try readSpanning.step() {
            Self.add(readSpanning, to: &state)
        }
        return state
    }

    /// Adds the fact of a row of `readState` or `readSpanning` (the fact's columns from 1 on).
    private static func add(_ r: Statement, to state: inout ImpressionSlices) {
        let key = ImpressionSlices.Key(slice: ImpressionSlices.Slice(localDate: r.text(1) ?? "", platform: r.text(2),
                                                                     appVersion: r.text(3)),
                                       modelInfo: r.text(4), feedPosition: r.isNull(5) ? nil : r.int(5))
        let reaction = r.isNull(7) ? nil : ImpressionSlices.Reaction(
            order: OrderKey(timestampMs: r.int64(7), sequence: 0, key: r.text(8) ?? ""), kind: r.text(9) ?? "",
            reason: r.text(10))
        state.facts[key] = ImpressionSlices.Fact(exposed: r.int64(6) == 1, reaction: reaction)
    }

    /// Binds a (user, impression) to parameters 1 and 2.
    private func bind(_ key: UserImpression, to statement: Statement) {
        statement.bind(key.user, at: 1)
        statement.bind(key.impression, at: 2)
    }

    /// Binds a (slice, group) and its fact to the ten parameters from `first` on.
    private func bind(_ key: ImpressionSlices.Key, _ fact: ImpressionSlices.Fact, to statement: Statement, from first: Int32) {
        statement.bind(key.slice.localDate, at: first)
        statement.bind(key.slice.platform, at: first + 1)
        statement.bind(key.slice.appVersion, at: first + 2)
        statement.bind(key.modelInfo, at: first + 3)
        statement.bind(key.feedPosition.map(Int64.init), at: first + 4)
        statement.bind(Int64(fact.exposed ? 1 : 0), at: first + 5)
        statement.bind(fact.reaction?.order.timestampMs, at: first + 6)
        statement.bind(fact.reaction?.order.key, at: first + 7)
        statement.bind(fact.reaction?.kind, at: first + 8)
        statement.bind(fact.reaction?.reason, at: first + 9)
    }

    /// Binds a slice to the three parameters from `first` on, a missing value as the empty blob.
    private func bind(_ slice: ImpressionSlices.Slice, to statement: Statement, from first: Int32) throws {
        statement.bind(slice.localDate, at: first)
        try statement.bind(slice.platform.map { .text($0) } ?? .emptyBlob, at: first + 1)
        try statement.bind(slice.appVersion.map { .text($0) } ?? .emptyBlob, at: first + 2)
    }
}

// MARK: - Counter tables

/// A table of the dislike-rate counters per cell: user, model, platform, app version, and the
/// local date (`dated`) and position (`positioned`) when it has them, a missing value as the
/// empty blob. A batch adds its changes and drops the cells they empty.
private struct CellTable {
    let add: Statement
    let dropEmpty: Statement
    let dated: Bool
    let positioned: Bool

    init(name: String, dated: Bool, positioned: Bool, in db: Database) throws {
        self.dated = dated
        self.positioned = positioned
        let key = ((dated ? ["local_date"] : []) + ["platform", "app_version", "model_info"]
                   + (positioned ? ["feed_position"] : []) + ["user_id"])
        let places = Array(repeating: "?", count: key.count + 4).joined(separator: ", ")
        add = try db.prepare("""
            INSERT INTO \(name) (\(key.joined(separator: ", ")), exposed, feedback_only, likes, dislikes) VALUES (\(places))
            ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET
                exposed = exposed + excluded.exposed, feedback_only = feedback_only + excluded.feedback_only,
                likes = likes + excluded.likes, dislikes = dislikes + excluded.dislikes
            """)
        dropEmpty = try db.prepare("""
            DELETE FROM \(name) WHERE \(key.map { "\($0) = ?" }.joined(separator: " AND "))
                AND exposed = 0 AND feedback_only = 0 AND likes = 0 AND dislikes = 0
            """)
    }

    /// Adds `cells`' changes, and drops the cells they empty.
    func write(_ cells: [ImpressionSlices.Cell: DislikeDeltas.Counters]) throws {
        for (cell, counters) in cells where !counters.isZero {
            let next = try bind(cell, to: add)
            add.bind(Int64(counters.exposed), at: next)
            add.bind(Int64(counters.feedbackOnly), at: next + 1)
            add.bind(Int64(counters.likes), at: next + 2)
            add.bind(Int64(counters.dislikes), at: next + 3)
            try add.run()
            if min(counters.exposed, counters.feedbackOnly, counters.likes, counters.dislikes) < 0 {
                try bind(cell, to: dropEmpty)
                try dropEmpty.run()
            }
        }
    }

    /// Binds a cell's key from parameter 1 on; returns the next parameter.
    @discardableResult
    private func bind(_ cell: ImpressionSlices.Cell, to statement: Statement) throws -> Int32 {
        var next: Int32 = 1
        func bind(_ value: SQLValue) throws {
            try statement.bind(value, at: next)
            next += 1
        }
        if dated { try bind(.text(cell.key.slice.localDate)) }
        try bind(cell.key.slice.platform.map { .text($0) } ?? .emptyBlob)
        try bind(cell.key.slice.appVersion.map { .text($0) } ?? .emptyBlob)
        try bind(cell.key.modelInfo.map { .text($0) } ?? .emptyBlob)
        if positioned { try bind(cell.key.feedPosition.map { .int(Int64($0)) } ?? .emptyBlob) }
        try bind(.text(cell.user))
        return next
    }
}
