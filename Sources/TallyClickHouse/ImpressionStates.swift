import TallyEvents
import TallyIngest

/// Keeps the dislike-rate counters exact at ingest, as the SQLite store's `ImpressionSliceWriter`
/// does: what is known of each (user, impression) — the groups it was exposed in and its final
/// (newest) feedback (`ImpressionState`) — and a batch changes the counters by the difference
/// between each touched impression's state before and after it.
///
/// The server keeps the states: `impression_exposures` (a `groupUniqArray` of the groups) and
/// `impression_reactions` (an `argMax` of the reaction by timestamp and id) are AggregatingMergeTree
/// tables fed by materialized views on `exposure_events` and `feedback_events`, so an event's
/// insert updates them, in any order, and an event stored twice changes neither
/// (`ClickHouseRollups`). Per batch the ingest looks up the touched impressions' states (one
/// query, the keys sent along as the external table `batch_impressions`), merges the batch's
/// share in memory, and inserts the signed changes to the counters into `impression_changes`, a
/// `Null` table: materialized views sum them into `dislike_groups`, `dislike_reason_counts` and
/// `rollup_counters`, and nothing stores them; a remake computes the counters from the states.
///
/// Change rows by `kind`: 0 a group's counters, 1 a reason's count, 2 the number of impressions
/// in several groups. A group's missing model or position is the empty text or 0 with its
/// `*_null` flag set.
enum ImpressionStates {
    /// A (user, impression) of the batch.
    typealias Key = UserImpression

    /// The state tables: exposure groups, and reactions.
    static let exposures = "impression_exposures"
    static let reactions = "impression_reactions"

    /// The `Null` table of the changes to the counters.
    static let changes = "impression_changes"

    /// The columns of `impression_changes`, in the order `changes(for:probing:using:)` writes them.
    static let changeColumns = [
        "user_id", "kind", "model_info", "model_null", "feed_position", "position_null", "reason",
        "exposed_delta", "feedback_only_delta", "likes_delta", "dislikes_delta", "count_delta",
    ]

    /// The rows to insert into `impression_changes` for the batch's share `incoming` of each
    /// impression it touches, given what is stored (one query); empty when nothing changes. With
    /// `probing`, the lookup reads only the impressions the impressions' set holds (`ProbeSets`).
    static func changes(for incoming: [Key: ImpressionState], probing: Bool, using client: ClickHouseClient) throws -> RowBinaryWriter {
        var changed = RowBinaryWriter()
        guard !incoming.isEmpty else { return changed }
        let before = try stored(Array(incoming.keys), probing: probing, using: client)
        // Changes are summed per user and written under the user's id, so that on a cluster they
        // reach the shard of the states they come from, and a shard's counters remade from its
        // own events replace exactly what it held.
        var deltasByUser: [Bytewise<String>: DislikeDeltas] = [:]
        for (key, batch) in incoming {
            let old = before[key] ?? ImpressionState()
            let new = old.merging(batch)
            func replace(_ deltas: inout DislikeDeltas) {
                old.contribute(-1, to: &deltas)
                new.contribute(1, to: &deltas)
            }
            replace(&deltasByUser[Bytewise(key.user), default: DislikeDeltas()])
        }
        for (user, deltas) in deltasByUser {
            for (group, counters) in deltas.groups where !counters.isZero {
                change(user.wrappedValue, kind: 0, group, exposed: counters.exposed, feedbackOnly: counters.feedbackOnly,
                       likes: counters.likes, dislikes: counters.dislikes, to: &changed)
            }
            for (reason, count) in deltas.reasons where count != 0 {
                change(user.wrappedValue, kind: 1, reason.group, reason: reason.reason, count: count, to: &changed)
            }
            if deltas.spanning != 0 {
                change(user.wrappedValue, kind: 2, FineGroup(modelInfo: nil, feedPosition: nil), count: deltas.spanning, to: &changed)
            }
        }
        return changed
    }

    /// The stored states of `keys`: one query, the keys travelling as external data, each
    /// impression's groups a row each (`kind` 0) and its reaction a row (`kind` 1).
    private static func stored(_ keys: [Key], probing: Bool, using client: ClickHouseClient) throws -> [Key: ImpressionState] {
        let lookup = RowBinaryWriter(rowsOf: keys) { ($0.user, $0.impression) }
        let condition = ProbeSets.condition(ProbeSets.impressions, batch: "batch_impressions", probing: probing)
        let named = ProbeSets.condition(ProbeSets.impressions, batch: "batch_impressions", probing: probing, as: "user_id, impression")
        let result = try client.query("""
            SELECT user_id, impression, toUInt8(0), tupleElement(g, 1), tupleElement(g, 2), tupleElement(g, 3), tupleElement(g, 4),
                   toInt64(0), '', '', '', toUInt8(0)
            FROM (SELECT user_id, impression, groupUniqArrayMerge(groups) AS gs FROM \(exposures) WHERE \(named)
                  GROUP BY user_id, impression)
            ARRAY JOIN gs AS g
            UNION ALL
            SELECT user_id, impression_id, toUInt8(1), tupleElement(r, 1), toUInt8(0), tupleElement(r, 2), toUInt8(0),
                   tupleElement(r, 3), tupleElement(r, 4), tupleElement(r, 5), tupleElement(r, 6), tupleElement(r, 7)
            FROM (SELECT user_id, impression_id, argMaxMerge(reaction) AS r FROM \(reactions) WHERE \(condition)
                  GROUP BY user_id, impression_id)
            """, table: "batch_impressions", structure: "user_id String, impression_id String", rows: lookup)
        var states: [Key: ImpressionState] = [:]
        for row in result.rows {
            let key = Key(user: row[0].text ?? "", impression: row[1].text ?? "")
            let group = FineGroup(modelInfo: row[4].int64 == 1 ? nil : row[3].text ?? "",
                                  feedPosition: row[6].int64 == 1 ? nil : row[5].int)
            var found = ImpressionState()
            if row[2].int64 == 0 {
                found.exposureGroups.insert(group)
            } else {
                found.reaction = ImpressionState.Reaction(
                    order: OrderKey(timestampMs: row[7].int64, sequence: 0, key: row[8].text ?? ""),
                    kind: row[9].text ?? "", reason: row[11].int64 == 1 ? nil : row[10].text ?? "", group: group)
            }
            states[key] = (states[key] ?? ImpressionState()).merging(found)
        }
        return states
    }

    /// A change row of `user`'s counters.
    private static func change(_ user: String, kind: UInt8, _ group: FineGroup, reason: String = "", exposed: Int = 0,
                               feedbackOnly: Int = 0, likes: Int = 0, dislikes: Int = 0, count: Int = 0, to out: inout RowBinaryWriter) {
        out.string(user)
        out.uint8(kind)
        out.string(group.modelInfo ?? "")
        out.flag(group.modelInfo == nil)
        out.int64(Int64(group.feedPosition ?? 0))
        out.flag(group.feedPosition == nil)
        out.string(reason)
        for value in [exposed, feedbackOnly, likes, dislikes, count] { out.int64(Int64(value)) }
    }
}
