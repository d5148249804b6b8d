import TallyEvents
import TallyIngest

/// Keeps the dislike-rate counters exact at ingest, as the SQLite store's `ImpressionSliceWriter`
/// does: what is known of each (user, impression) — the groups it was exposed in and its final
/// (newest) feedback (`ImpressionState`) — lives in `impression_states`, and a batch changes the
/// counters by the difference between each touched impression's state before and after it.
///
/// Per batch: one lookup of the touched impressions' stored rows (the keys sent along as the
/// external table `batch_impressions`), the states merged in memory, then one insert of the new
/// state rows into `impression_states` and one of the signed changes to the counters into
/// `impression_changes`, a `Null` table: materialized views sum the changes into
/// `dislike_groups`, `dislike_reason_counts` and `rollup_counters` (`ClickHouseRollups`), and
/// nothing stores them; a remake computes the counters from the states. Merging a state in again
/// changes nothing, so events stored again after a failed send leave the counters as they were.
///
/// State rows by `kind`: 0 an exposure group of the impression, 1 a reaction (the newest one
/// held is the impression's; older ones stay until a remake). Change rows by `kind`: 0 a
/// group's counters, 1 a reason's count, 2 the number of impressions in several groups.
/// A group's missing model or position is the empty text or 0 with its `*_null` flag set.
enum ImpressionStates {
    /// A (user, impression) of the batch.
    typealias Key = UserImpression

    static let table = "impression_states"

    /// The `Null` table of the changes to the counters.
    static let changes = "impression_changes"

    /// The columns of `impression_states`, in the order `rows(for:using:)` writes them.
    static let columns = [
        "user_id", "impression_id", "kind", "model_info", "model_null", "feed_position", "position_null",
        "ts_ms", "reaction_key", "feedback_type", "reason", "reason_null",
    ]

    /// The columns of `impression_changes`, in the order `rows(for:using:)` writes them.
    static let changeColumns = [
        "user_id", "kind", "model_info", "model_null", "feed_position", "position_null", "reason",
        "exposed_delta", "feedback_only_delta", "likes_delta", "dislikes_delta", "count_delta",
    ]

    /// The rows to insert into `impression_states` and `impression_changes` for the batch's share
    /// `incoming` of each impression it touches, given what is stored (one query); empty when
    /// nothing changes. With `probing`, the lookup reads only the impressions the impressions' set
    /// holds (`ProbeSets`).
    static func rows(for incoming: [Key: ImpressionState], probing: Bool,
                     using client: ClickHouseClient) throws -> (states: RowWriter, changes: RowWriter) {
        var out = RowWriter(), changed = RowWriter()
        guard !incoming.isEmpty else { return (out, changed) }
        let before = try stored(Array(incoming.keys), probing: probing, using: client)
        // Changes are summed per user and written under the user's id, so that on a cluster they
        // reach the shard of the states they come from, and a shard's counters remade from its
        // own events replace exactly what it held.
        var deltasByUser: [Bytewise<String>: DislikeDeltas] = [:]
        for (key, batch) in incoming {
            let old = before[key] ?? ImpressionState()
            let new = old.merging(batch)
            for group in new.exposureGroups where !old.exposureGroups.contains(group) {
                write(key, kind: 0, group, to: &out)
                reactionFields(to: &out)
            }
            if let reaction = new.reaction, reaction != old.reaction {
                write(key, kind: 1, reaction.group, to: &out)
                reactionFields(ts: reaction.order.timestampMs, key: reaction.order.key, kind: reaction.kind,
                               reason: reaction.reason, to: &out)
            }
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
        return (out, changed)
    }

    /// The stored states of `keys`: one query, the keys travelling as external data.
    private static func stored(_ keys: [Key], probing: Bool, using client: ClickHouseClient) throws -> [Key: ImpressionState] {
        let lookup = RowWriter(rowsOf: keys) { ($0.user, $0.impression) }
        let result = try client.query("""
            SELECT user_id, impression_id, kind, model_info, model_null, feed_position, position_null,
                   ts_ms, reaction_key, feedback_type, reason, reason_null
            FROM \(table) WHERE \(ProbeSets.condition(ProbeSets.impressions, batch: "batch_impressions", probing: probing))
            """, table: "batch_impressions", structure: "user_id String, impression_id String", rows: lookup.bytes)
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

    /// The key, kind and group fields of a state row.
    private static func write(_ key: Key, kind: Int64, _ group: FineGroup, to out: inout RowWriter) {
        out.text(key.user)
        out.text(key.impression)
        out.number(kind)
        group.write(to: &out)
    }

    /// The reaction fields of a state row (empty for exposure groups), ending it.
    private static func reactionFields(ts: Int64 = 0, key: String = "", kind: String = "", reason: String? = "",
                                       to out: inout RowWriter) {
        out.number(ts)
        out.text(key)
        out.text(kind)
        out.text(reason ?? "")
        out.number(Int64(reason == nil ? 1 : 0))
        out.endRow()
    }

    /// A change row of `user`'s counters.
    private static func change(_ user: String, kind: Int64, _ group: FineGroup, reason: String = "", exposed: Int = 0,
                               feedbackOnly: Int = 0, likes: Int = 0, dislikes: Int = 0, count: Int = 0, to out: inout RowWriter) {
        out.text(user)
        out.number(kind)
        group.write(to: &out)
        out.text(reason)
        for value in [exposed, feedbackOnly, likes, dislikes, count] { out.number(Int64(value)) }
        out.endRow()
    }
}

extension FineGroup {
    /// The group's columns: model, whether it is missing, position, whether it is missing.
    fileprivate func write(to out: inout RowWriter) {
        out.text(modelInfo ?? "")
        out.number(Int64(modelInfo == nil ? 1 : 0))
        out.number(Int64(feedPosition ?? 0))
        out.number(Int64(feedPosition == nil ? 1 : 0))
    }
}
