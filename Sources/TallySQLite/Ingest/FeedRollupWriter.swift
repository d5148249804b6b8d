import TallyIngest

/// Keeps the dislike-rate counters without filters current: applies a batch's change in them
/// (`DislikeDeltas`, from `ImpressionSliceWriter`, which keeps every impression's state) to
/// `dislike_groups`, `dislike_reasons` and `rollup_counters`.
final class FeedRollupWriter {
    private let updateGroup: Statement
    private let insertGroup: Statement
    private let addReason: Statement
    private let dropEmptyReasons: Statement
    private let addCounter: Statement
    private let database: Database

    /// The counter of impressions seen in more than one group.
    static let spanningCounter = "impressions_in_several_groups"

    init(database db: Database) throws {
        database = db
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

    /// Adds `deltas` to the counters, and drops the reasons they empty.
    func write(_ deltas: DislikeDeltas) throws {
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
