import TallyEvents
import TallyIngest

/// Keeps the exposure counts exact at ingest, as the SQLite store's `ExposureRollupWriter` does:
/// each (page instance, item) counts once, in the groups of its earliest exposure event, and its
/// other events are duplicates there. A batch changes the per-group counts by the difference
/// between each touched pair's contribution before and after it.
///
/// The server keeps what is known of each pair: `exposure_pairs`, an AggregatingMergeTree fed by
/// a materialized view on `exposure_events`, holds its earliest event (`argMin` by timestamp and
/// id) and its number of events, so an event's insert updates it, in any order
/// (`ClickHouseRollups`). Per batch the ingest looks up the touched pairs (one query, the keys
/// sent along as the external table `batch_pairs`), merges the batch's share in memory, and
/// inserts into `exposure_changes`, a `Null` table, the signed changes to the counts and a row
/// per touched pair with its earliest exposure: views sum the changes into `exposure_groups` and
/// add each pair's item and user to `exposure_members` (`uniqExactState`, which can only add), and
/// nothing stores them; a remake computes both from the pairs. A pair whose earliest event moves
/// it to another group (an earlier exposure arriving in a later batch) may leave a member behind:
/// such a batch marks the rollups of `exposure_pairs` stale and has them remade from the pairs.
///
/// The changes are written per user of the pair's first exposure and month of its date, and views
/// sum them per user as well (`exposures --user`), kept per month so that a load's merges rewrite
/// the counters of the months it brings. Those per-user counts are what the user's own events
/// give while every pair's events come from one user: a batch that finds a pair with events of
/// another user than its first's writes a count row (kind 1) into `exposure_counters`, and
/// `exposures --user` then reads the events (`ClickHouseReports`).
///
/// Change rows by `kind`: 0 a change to a group's counts (`local_date` holds the month,
/// `YYYY-MM`), 1 pairs found with events of several users, 2 a pair's earliest exposure. A missing
/// page, model or position is the empty text with its `*_null` flag set.
enum ExposurePairs {
    /// A (page instance, item) of the batch.
    typealias Key = PageItem

    typealias First = FirstExposure

    /// A group's change as owned by the user of the pair's first exposure, in the month of its date.
    struct Owned: Hashable {
        @Bytewise var user: String
        var month: String
        var group: Group
    }

    /// A group of `exposures --by`, as `exposure_groups` keys it.
    struct Group: Hashable {
        var dimension: Dimension
        @Bytewise var value: String
        var missing: Bool
    }

    /// An `exposures --by` dimension; its raw value is the `delta_dimension` text.
    enum Dimension: String {
        case day, page, item, model, position
    }

    /// The change a batch brings to one group's counts.
    struct Change: Equatable {
        var exposures = 0
        var duplicates = 0

        /// Adds (`sign` 1) or removes (`sign` -1) a pair of `events` exposure events.
        mutating func add(_ sign: Int, events: Int) {
            exposures += sign
            duplicates += sign * (events - 1)
        }
    }

    static let table = "exposure_pairs"

    /// The `Null` table of the changes to the counts.
    static let changes = "exposure_changes"

    /// The columns of `exposure_changes`, in the order `changes(for:shared:probing:using:)` writes them.
    static let changeColumns = [
        "user_id", "kind", "delta_dimension", "delta_value", "delta_null", "exposures_delta", "duplicates_delta",
        "item_id", "local_date", "page_id", "page_null", "model_info", "model_null", "feed_position", "position_null",
    ]

    /// The rows to insert into `exposure_changes` for the batch's share `incoming` of each pair it
    /// touches, given what is stored (one query), and whether a pair moved to other groups or
    /// another user. `shared` are the pairs whose batch events came from more than one user. With
    /// `probing`, the lookup reads only the pairs the pairs' set holds (`ProbeSets`).
    static func changes(for incoming: [Key: First], shared: Set<Key>, probing: Bool,
                        using client: ClickHouseClient) throws -> (rows: RowBinaryWriter, moved: Bool) {
        var changed = RowBinaryWriter()
        guard !incoming.isEmpty else { return (changed, false) }
        let before = try stored(Array(incoming.keys), probing: probing, using: client)
        // Changes are summed per user of the pair's first exposure and written under that user's
        // id, so that on a cluster they reach the shard of the pair row they come from.
        // Most pairs are new and each has an item of its own: about one change per pair.
        var deltas: [Owned: Change] = Dictionary(minimumCapacity: incoming.count + incoming.count / 4)
        var moved = false
        var sharedByUser: [Bytewise<String>: Int] = [:]
        func contribute(_ sign: Int, _ first: First, item: String) {
            let month = String(first.localDate.prefix(7))
            for group in first.groups(item: item) {
                deltas[Owned(user: first.user, month: month, group: group), default: Change()].add(sign, events: first.events)
            }
        }
        for (key, batch) in incoming {
            let old = before[key]
            let new = old?.merging(batch) ?? batch
            write(new.user, kind: 2, nil, pair: (key.item, new), to: &changed)
            if let old {
                contribute(-1, old, item: key.item)
                moved = moved || old.groups(item: key.item) != new.groups(item: key.item) || !old.user.hasSameBytes(as: new.user)
            }
            if shared.contains(key) || old.map({ !$0.user.hasSameBytes(as: batch.user) }) == true { sharedByUser[Bytewise(new.user), default: 0] += 1 }
            contribute(1, new, item: key.item)
        }
        for (owned, change) in deltas where change != Change() {
            write(owned.user, kind: 0, owned.group, month: owned.month, exposures: change.exposures, duplicates: change.duplicates,
                  to: &changed)
        }
        for (user, count) in sharedByUser {
            write(user.wrappedValue, kind: 1, nil, exposures: count, to: &changed)
        }
        return (changed, moved)
    }

    /// A row of `exposure_changes`: a change to `group`'s counts in `month`, the number of pairs
    /// of several users (neither group nor pair), or a pair's item and earliest exposure.
    private static func write(_ user: String, kind: UInt8, _ group: Group?, month: String = "", pair: (item: String, first: First)? = nil,
                              exposures: Int = 0, duplicates: Int = 0, to out: inout RowBinaryWriter) {
        out.string(user)
        out.uint8(kind)
        out.string(group?.dimension.rawValue ?? "")
        out.string(group?.value ?? "")
        out.flag(group?.missing == true)
        out.int64(Int64(exposures))
        out.int64(Int64(duplicates))
        let first = pair?.first
        out.string(pair?.item ?? "")
        out.string(first?.localDate ?? month)
        out.string(first?.pageId ?? "")
        out.flag(first != nil && first?.pageId == nil)
        out.string(first?.modelInfo ?? "")
        out.flag(first != nil && first?.modelInfo == nil)
        out.int64(Int64(first?.feedPosition ?? 0))
        out.flag(first != nil && first?.feedPosition == nil)
    }

    /// The stored pairs among `keys`, each its earliest exposure and number of events: one
    /// query, the keys travelling as external data.
    private static func stored(_ keys: [Key], probing: Bool, using client: ClickHouseClient) throws -> [Key: First] {
        let lookup = RowBinaryWriter(rowsOf: keys) { ($0.pageInstance, $0.item) }
        let result = try client.query("""
            SELECT page_instance_id, item_id, tupleElement(f, 1), tupleElement(f, 2), tupleElement(f, 3), tupleElement(f, 4),
                   tupleElement(f, 5), tupleElement(f, 6), tupleElement(f, 7), tupleElement(f, 8), tupleElement(f, 9), tupleElement(f, 10),
                   pair_events
            FROM (SELECT page_instance_id, item_id, argMinMerge(first) AS f, sumMerge(events) AS pair_events
                  FROM \(table) WHERE \(ProbeSets.condition(ProbeSets.exposurePairs, batch: "batch_pairs", probing: probing))
                  GROUP BY page_instance_id, item_id)
            """, table: "batch_pairs", structure: "page_instance_id String, item_id String", rows: lookup)
        var pairs: [Key: First] = [:]
        for row in result.rows {
            pairs[Key(pageInstance: row[0].text ?? "", item: row[1].text ?? "")] = First(
                order: OrderKey(timestampMs: row[2].int64, sequence: 0, key: row[3].text ?? ""), user: row[4].text ?? "",
                localDate: row[5].text ?? "", pageId: row[7].int64 == 1 ? nil : row[6].text ?? "",
                modelInfo: row[9].int64 == 1 ? nil : row[8].text ?? "", feedPosition: row[11].int64 == 1 ? nil : row[10].int,
                events: row[12].int)
        }
        return pairs
    }
}

extension FirstExposure {
    /// The pair's group in each dimension: `exposures --by` name, value and whether it is missing.
    func groups(item: String) -> [ExposurePairs.Group] {
        [ExposurePairs.Group(dimension: .day, value: localDate, missing: false),
         ExposurePairs.Group(dimension: .page, value: pageId ?? "", missing: pageId == nil),
         ExposurePairs.Group(dimension: .item, value: item, missing: false),
         ExposurePairs.Group(dimension: .model, value: modelInfo ?? "", missing: modelInfo == nil),
         ExposurePairs.Group(dimension: .position, value: feedPosition.map(String.init) ?? "", missing: feedPosition == nil)]
    }
}
