import TallyIngest

/// Keeps the per-impression tables and the dislike-rate counters current: for every
/// (user, impression) a batch touches (the keys of its `SliceBatch`, whose exposed groups are
/// the impression's exposure groups), reads what is stored (nothing when `impression_slices`
/// held nothing of it), merges the batch in, writes the result and applies the change in its
/// contribution to the counters. `impression_exposures` is in the two runs of
/// `StateRuns.impressions` (table 1).
final class FeedRollupWriter {
    private let runs: StateRuns
    private let exposureGroups: [Statement]
    private let reaction: Statement
    private let insertExposureGroup: [Statement]
    private let saveReaction: Statement
    private let updateGroup: Statement
    private let insertGroup: Statement
    private let addReason: Statement
    private let dropEmptyReasons: Statement
    private let addCounter: Statement
    private let database: Database

    /// The counter of impressions seen in more than one group.
    static let spanningCounter = "impressions_in_several_groups"

    init(database db: Database, runs: StateRuns) throws {
        database = db
        self.runs = runs
        let tables = [StateRuns.Run.recent, .settled].map { runs.name(1, $0) }
        exposureGroups = try tables.map {
            try db.prepare("SELECT model_info, feed_position FROM \($0) WHERE user_id = ? AND impression_id = ?")
        }
        reaction = try db.prepare("""
            SELECT ts_ms, reaction_key, feedback_type, reason, model_info, feed_position
            FROM impression_reactions WHERE user_id = ? AND impression_id = ?
            """)
        insertExposureGroup = try tables.map {
            try db.prepare("INSERT INTO \($0) (user_id, impression_id, model_info, feed_position) VALUES (?, ?, ?, ?)")
        }
        saveReaction = try db.prepare("""
            INSERT OR REPLACE INTO impression_reactions (user_id, impression_id, ts_ms, reaction_key, feedback_type, reason,
                model_info, feed_position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        updateGroup = try db.prepare("""
            UPDATE dislike_groups SET exposed = exposed + ?, feedback_only = feedback_only + ?, likes = likes + ?,
                dislikes = dislikes + ? WHERE model_info IS ? AND feed_position IS ?
            """)
        insertGroup = try db.prepare("""
            INSERT INTO dislike_groups (exposed, feedback_only, likes, dislikes, model_info, feed_position) VALUES (?, ?, ?, ?, ?, ?)
            """)
        addReason = try db.prepare("""
            INSERT INTO dislike_reasons (model_info, feed_position, reason, count) VALUES (?, ?, ?, ?)
            ON CONFLICT (model_info, feed_position, reason) DO UPDATE SET count = count + excluded.count
            """)
        dropEmptyReasons = try db.prepare("DELETE FROM dislike_reasons WHERE count = 0")
        addCounter = try db.prepare("""
            INSERT INTO rollup_counters (name, value) VALUES (?, ?)
            ON CONFLICT (name) DO UPDATE SET value = value + excluded.value
            """)
    }

    /// Writes the batch; `held` holds the (user, impression) pairs of it that the store held
    /// before (`ImpressionSliceWriter.write`): nothing is stored of any other, so it is not read.
    func write(_ batch: RollupBatch, held: Set<UserImpression>) throws {
        var deltas = DislikeDeltas()
        var added = [0, 0]
        for (key, slices) in batch.slices.impressions {
            var incoming = ImpressionState()
            incoming.exposureGroups = slices.exposureGroups
            if !batch.reactions.isEmpty, let reaction = batch.reactions[key] {
                incoming.reaction = ImpressionState.Reaction(
                    order: reaction.order, kind: reaction.kind, reason: reaction.reason,
                    group: FineGroup(modelInfo: reaction.modelInfo, feedPosition: reaction.feedPosition))
            }
            let (before, run) = held.contains(key) ? try stored(key) : (ImpressionState(), .recent)
            let after = before.merging(incoming)
            let insert = insertExposureGroup[run.rawValue]
            for group in incoming.exposureGroups.subtracting(before.exposureGroups) {
                try insert.bind([.text(key.user), .text(key.impression)] + group.sqlValues)
                try insert.run()
                added[run.rawValue] += 1
            }
            if let reaction = after.reaction, reaction != before.reaction {
                try saveReaction.bind([
                    .text(key.user), .text(key.impression), .int(reaction.order.timestampMs), .text(reaction.order.key),
                    .text(reaction.kind), reaction.reason.map { .text($0) } ?? .null,
                ] + reaction.group.sqlValues)
                try saveReaction.run()
            }
            before.contribute(-1, to: &deltas)
            after.contribute(1, to: &deltas)
        }
        try apply(deltas)
        try runs.noteAdded(added[0], to: .recent)
        try runs.noteAdded(added[1], to: .settled)
    }

    /// What is stored of `key`, and the run of `impression_exposures` that holds its exposure
    /// groups (the recent one when none does).
    private func stored(_ key: UserImpression) throws -> (ImpressionState, StateRuns.Run) {
        var state = ImpressionState()
        var run = StateRuns.Run.recent
        try readExposureGroups(key, in: .recent, into: &state)
        if state.exposureGroups.isEmpty, runs.mayBeSettled(key.user, key.impression) {
            try readExposureGroups(key, in: .settled, into: &state)
            if !state.exposureGroups.isEmpty { run = .settled }
        }
        reaction.bind(key.user, at: 1)
        reaction.bind(key.impression, at: 2)
        if try reaction.step() {
            state.reaction = ImpressionState.Reaction(
                order: OrderKey(timestampMs: reaction.int64(0), sequence: 0, key: reaction.text(1) ?? ""),
                kind: reaction.text(2) ?? "", reason: reaction.text(3),
                group: FineGroup(modelInfo: reaction.text(4), feedPosition: reaction.int(5)))
        }
        reaction.reset()
        return (state, run)
    }

    private func readExposureGroups(_ key: UserImpression, in run: StateRuns.Run, into state: inout ImpressionState) throws {
        let read = exposureGroups[run.rawValue]
        read.bind(key.user, at: 1)
        read.bind(key.impression, at: 2)
        defer { read.reset() }
        while try read.step() {
            state.exposureGroups.insert(FineGroup(modelInfo: read.text(0), feedPosition: read.isNull(1) ? nil : read.int(1)))
        }
    }

    private func apply(_ deltas: DislikeDeltas) throws {
        for (group, counters) in deltas.groups where !counters.isZero {
            let values: [SQLValue] = [.int(Int64(counters.exposed)), .int(Int64(counters.feedbackOnly)),
                                      .int(Int64(counters.likes)), .int(Int64(counters.dislikes))] + group.sqlValues
            try updateGroup.bind(values)
            try updateGroup.run()
            if database.changes == 0 {
                try insertGroup.bind(values)
                try insertGroup.run()
            }
        }
        var removedReasons = false
        for (key, count) in deltas.reasons where count != 0 {
            try addReason.bind(key.group.sqlValues + [.text(key.reason), .int(Int64(count))])
            try addReason.run()
            removedReasons = removedReasons || count < 0
        }
        if removedReasons {
            try dropEmptyReasons.run()
        }
        if deltas.spanning != 0 {
            try addCounter.bind([.text(Self.spanningCounter), .int(Int64(deltas.spanning))])
            try addCounter.run()
        }
    }
}

// MARK: - FineGroup as SQL

extension FineGroup {
    /// `model_info`, `feed_position` as bound to the rollup statements.
    var sqlValues: [SQLValue] {
        [modelInfo.map { .text($0) } ?? .null, feedPosition.map { .int(Int64($0)) } ?? .null]
    }
}
