/// The rollups the reports read instead of the event tables (`docs/clickhouse.md`, Rollups):
/// SummingMergeTree and AggregatingMergeTree tables, each fed by a materialized view on one
/// event table, so every insert into that table (already free of duplicate keys) adds to them,
/// or on a `Null` table of the changes the ingest works out for the feed counters. They mirror
/// what the SQLite store keeps at ingest (`reading_daily`, `reading_daily_all`, `material_state`,
/// `reading_user_state`, `event_user_counts`, the feed states and counters).
///
/// **Creating them fills them.** A rollup missing from a database (an older one, or one whose
/// rollup was dropped) is filled from its event table first, under `NAME__new`, which then takes
/// its name; its view is created last. A run stopped at any step leaves either no `NAME` (made
/// again from the start) or a full one (only the view left to create), so the next run converges.
/// No insert may run meanwhile: the schema is created before an ingest or `report serve` writes.
///
/// **A resent insert never counts twice.** The one way an event table can hold two copies of a
/// row is an insert sent again after a failure, which the view would add to the rollup twice.
/// Before such a resend the ingest marks the table's rollups stale (an empty table
/// `TABLE__rollups_stale`); once it has merged the table (`OPTIMIZE … FINAL`) it remakes them
/// from it and drops the mark. A mark found when the schema is created (a run stopped in
/// between) is finished the same way.
enum ClickHouseRollups {
    struct Rollup {
        var name: String
        var source: String
        var engine: String
        var columns: String
        var partition: String?
        var order: String
        /// The view's query, reading `%SOURCE%`; its column names are the table's.
        var select: String
        /// The table of changes the view reads instead of `source` (a `Null` table the ingest
        /// writes), if any; `fills` still read `source`.
        var changes: String?
        /// The queries whose rows fill the table when it is made, if not `select`'s: they may
        /// read `%SOURCE%` and other tables as `%DB%.NAME%LOCAL%`.
        var fills: [String] = []
        /// The Distributed table's sharding key on a cluster.
        var shard = "rand()"
        /// Other tables the fills read: the table is remade with them (made again, or marked stale).
        var staleWith: [String] = []
        /// Rows per primary-key mark, when not the server's default (8,192).
        var granularity: Int?
        /// The column whose hash splits a fill into passes (`fill(_:into:local:rowsPerPass:using:)`):
        /// every table the fill reads has it, and what the fill must see whole (an impression's
        /// states, a pair's events) shares its value.
        var split = "user_id"
    }

    /// Source rows a fill aggregates in one pass at most. Filling from the events' states takes
    /// the server about 600 bytes a row (1.8 GB for 3M states at 10M events), past 18.16's
    /// default limit of 10 GB a query well before 100M events; a pass of 4M stays near 2.4 GB.
    static let rowsPerFillPass = 4_000_000

    /// A dislike-rate group's columns in the feed rollups (no Nullable in a sorting key in 18.16).
    private static let fineGroupColumns = "model_info String, model_null UInt8, feed_position Int64, position_null UInt8"
    private static let fineGroup = "model_info, model_null, feed_position, position_null"
    /// An exposure's dislike-rate group: (model, model missing, position, position missing).
    private static let exposureGroup = """
        tuple(ifNull(model_info, ''), toUInt8(isNull(model_info)), ifNull(feed_position, 0), toUInt8(isNull(feed_position)))
        """
    /// The partition of a feed state: the month of its events' local dates.
    private static let month = "\(ClickHouseSchema.monthOfLocalDate) AS month"
    /// A feedback event's reaction: its group, its ordering key, its kind and reason.
    private static let reaction = """
        tuple(model_info, feed_position, ts_ms, id, feedback_type, ifNull(reason, ''), toUInt8(isNull(reason)))
        """
    /// Each stored (user, impression)'s final reaction (`impression_reactions`): model, position,
    /// kind, reason, whether the reason is missing.
    private static let finalReactions = """
        SELECT user_id, impression_id,
               tuple(tupleElement(r, 1), tupleElement(r, 2), tupleElement(r, 5), tupleElement(r, 6), tupleElement(r, 7)) AS final
        FROM (SELECT user_id, impression_id, argMaxMerge(reaction) AS r FROM %DB%.\(ImpressionStates.reactions)%LOCAL%
              GROUP BY user_id, impression_id)
        """
    /// Per (user, impression) and group: whether it was exposed there and its final reaction
    /// when that is in the group ('' otherwise).
    private static let impressionGroups = """
        SELECT user_id, impression_id, \(fineGroup), max(exposed) AS exposed, max(reaction) AS reaction
        FROM (
            SELECT user_id, impression AS impression_id, tupleElement(g, 1) AS model_info, tupleElement(g, 2) AS model_null,
                   tupleElement(g, 3) AS feed_position, tupleElement(g, 4) AS position_null, toUInt8(1) AS exposed, '' AS reaction
            FROM (SELECT user_id, impression, groupUniqArrayMerge(groups) AS gs FROM %DB%.\(ImpressionStates.exposures)%LOCAL%
                  GROUP BY user_id, impression)
            ARRAY JOIN gs AS g
            UNION ALL
            SELECT user_id, impression_id, tupleElement(final, 1), toUInt8(0), tupleElement(final, 2), toUInt8(0), toUInt8(0),
                   tupleElement(final, 3)
            FROM (\(finalReactions))
        )
        GROUP BY user_id, impression_id, \(fineGroup)
        """

    /// The newest reading event's ordering key: timestamp, sequence, event id.
    private static let newest = "tuple(ts_ms, ifNull(sequence, 0), event_id)"
    private static let materialColumns = """
        seconds_state AggregateFunction(sum, UInt64), completions_state AggregateFunction(sum, UInt64),
        last_state AggregateFunction(max, Tuple(Int64, Int64, String)),
        type_state AggregateFunction(argMax, String, Tuple(Int64, Int64, String)),
        titles_state AggregateFunction(sum, UInt64),
        title_state AggregateFunction(argMax, Tuple(String, Int64, Int64, String), Tuple(UInt8, Int64, Int64, String)),
        positions_state AggregateFunction(sum, UInt64),
        position_state AggregateFunction(argMax, Tuple(String, Float64, Int64, Int64, String), Tuple(UInt8, Int64, Int64, String))
        """
    // The columns are named apart from the event columns they sum (an alias equal to a column
    // it reads is an error in ClickHouse). The newest title (position) is the argMax keyed first by whether there is one, so a
    // material's newest non-null value wins over any null; no Nullable inside a state's tuple
    // (18.16 cannot send such a state between shards).
    private static let materialStates = """
        sumState(toUInt64(active_seconds)) AS seconds_state, sumState(toUInt64(event_type = 'marked_as_read')) AS completions_state,
        maxState(\(newest)) AS last_state, argMaxState(target_type, \(newest)) AS type_state,
        sumState(toUInt64(isNotNull(title))) AS titles_state,
        argMaxState(tuple(assumeNotNull(title), ts_ms, ifNull(sequence, 0), event_id),
                    tuple(toUInt8(isNotNull(title)), ts_ms, ifNull(sequence, 0), event_id)) AS title_state,
        sumState(toUInt64(isNotNull(position))) AS positions_state,
        argMaxState(tuple(assumeNotNull(position), ifNull(progress, -1), ts_ms, ifNull(sequence, 0), event_id),
                    tuple(toUInt8(isNotNull(position)), ts_ms, ifNull(sequence, 0), event_id)) AS position_state
        """

    static let all: [Rollup] = [
        // Active seconds per user, local date and material; `events` keeps a day of zero
        // seconds (SummingMergeTree drops a row whose sums are all zero).
        Rollup(name: "reading_daily", source: "reading_events", engine: "SummingMergeTree",
               columns: "user_id String, local_date String, material_id String, seconds UInt64, events UInt64",
               partition: ClickHouseSchema.monthOfLocalDate, order: "user_id, local_date, material_id",
               select: """
                   SELECT user_id, local_date, material_id, sum(toUInt64(active_seconds)) AS seconds, count() AS events
                   FROM %SOURCE% GROUP BY user_id, local_date, material_id
                   """),
        Rollup(name: "reading_daily_all", source: "reading_events", engine: "SummingMergeTree",
               columns: "local_date String, material_id String, seconds UInt64, events UInt64",
               partition: ClickHouseSchema.monthOfLocalDate, order: "local_date, material_id",
               select: """
                   SELECT local_date, material_id, sum(toUInt64(active_seconds)) AS seconds, count() AS events
                   FROM %SOURCE% GROUP BY local_date, material_id
                   """),
        // Partitioned by the month of the events' local dates, so that a load's merges rewrite the
        // states of the months it brings, not every user's materials; a report merges a user's
        // months, reading a mark per month: 256 states a mark, not 8,192 (at 12M events, 24
        // months, the heaviest user's read takes 20 ms instead of 110 ms; 18 ms in one partition).
        Rollup(name: "reading_materials", source: "reading_events", engine: "AggregatingMergeTree",
               columns: "user_id String, material_id String, month String, " + materialColumns,
               partition: "month", order: "user_id, material_id",
               select: "SELECT user_id, material_id, \(month), \(materialStates) FROM %SOURCE% GROUP BY user_id, material_id, month",
               granularity: 256),
        Rollup(name: "reading_materials_all", source: "reading_events", engine: "AggregatingMergeTree",
               columns: "material_id String, " + materialColumns,
               partition: nil, order: "material_id",
               select: "SELECT material_id, \(materialStates) FROM %SOURCE% GROUP BY material_id"),
        // Each user's newest reading event with its UTC offset (the event id makes it unique).
        Rollup(name: "reading_latest", source: "reading_events", engine: "AggregatingMergeTree",
               columns: "user_id String, last_state AggregateFunction(max, Tuple(Int64, Int64, String, Int16))",
               partition: nil, order: "user_id",
               select: """
                   SELECT user_id, maxState(tuple(ts_ms, ifNull(sequence, 0), event_id, tz_minutes)) AS last_state
                   FROM %SOURCE% GROUP BY user_id
                   """),
        // Events per name and user, for `top --by userId` (SQLite: event_user_counts).
        Rollup(name: "event_user_counts", source: "observability_events", engine: "SummingMergeTree",
               columns: "event_name String, user_id String, events UInt64",
               partition: nil, order: "event_name, user_id",
               select: "SELECT event_name, user_id, count() AS events FROM %SOURCE% GROUP BY event_name, user_id"),
        // What is known of each (user, impression) (`ImpressionStates`): the groups it was
        // exposed in, and its newest reaction. The states do not depend on the order the events
        // arrive in, and an event stored twice changes neither. Like the pairs' below, they are
        // kept per month of the events' local dates, as the event tables are, so the merges a
        // load sets off stay within the months it brings; a key's months merge when it is read.
        // (`impression`, not `impression_id`: 18.16 reads an alias of a column's own name in the
        // WHERE clause too, and its views take no subquery.)
        Rollup(name: ImpressionStates.exposures, source: "exposure_events", engine: "AggregatingMergeTree",
               columns: """
                   user_id String, impression String, month String, groups AggregateFunction(groupUniqArray, Tuple(String, UInt8, Int64, UInt8))
                   """,
               partition: "month", order: "user_id, impression",
               select: """
                   SELECT user_id, assumeNotNull(impression_id) AS impression, \(month), groupUniqArrayState(\(exposureGroup)) AS groups
                   FROM %SOURCE% WHERE isNotNull(impression_id) GROUP BY user_id, impression, month
                   """, shard: "cityHash64(user_id)"),
        Rollup(name: ImpressionStates.reactions, source: "feedback_events", engine: "AggregatingMergeTree",
               columns: """
                   user_id String, impression_id String, month String,
                   reaction AggregateFunction(argMax, Tuple(String, Int64, Int64, String, String, String, UInt8), Tuple(Int64, String))
                   """,
               partition: "month", order: "user_id, impression_id",
               select: """
                   SELECT user_id, impression_id, \(month), argMaxState(\(reaction), tuple(ts_ms, id)) AS reaction
                   FROM %SOURCE% GROUP BY user_id, impression_id, month
                   """, shard: "cityHash64(user_id)"),
        // The dislike-rate counters per group (SQLite: dislike_groups), summed from the changes
        // (`impression_changes`), and the same per user (`dislike-rate --user`).
        dislikeGroups("dislike_groups", perUser: false),
        dislikeGroups("dislike_user_groups", perUser: true),
        // Reasons of final dislikes per group (SQLite: dislike_reasons), and per user.
        dislikeReasons("dislike_reason_counts", perUser: false),
        dislikeReasons("dislike_user_reason_counts", perUser: true),
        // Impressions in more than one group (SQLite: rollup_counters).
        counters("rollup_counters", spanningCounter, source: ImpressionStates.reactions, changes: ImpressionStates.changes, kind: 2,
                 delta: "count_delta", staleWith: [ImpressionStates.exposures], fill: """
            SELECT user_id, impression_id FROM (\(impressionGroups)) GROUP BY user_id, impression_id HAVING count() > 1
            """),
        // Each (page instance, item)'s earliest exposure and its number of events (`ExposurePairs`).
        Rollup(name: ExposurePairs.table, source: "exposure_events", engine: "AggregatingMergeTree",
               columns: """
                   page_instance_id String, item_id String, month String,
                   first AggregateFunction(argMin, Tuple(Int64, String, String, String, String, UInt8, String, UInt8, Int64, UInt8),
                                           Tuple(Int64, String)),
                   events AggregateFunction(sum, UInt64)
                   """,
               partition: "month", order: "page_instance_id, item_id",
               select: """
                   SELECT page_instance_id, item_id, \(month),
                          argMinState(tuple(ts_ms, event_id, user_id, local_date, ifNull(page_id, ''), toUInt8(isNull(page_id)),
                                            ifNull(model_info, ''), toUInt8(isNull(model_info)), ifNull(feed_position, 0),
                                            toUInt8(isNull(feed_position))), tuple(ts_ms, event_id)) AS first,
                          sumState(toUInt64(1)) AS events
                   FROM %SOURCE% GROUP BY page_instance_id, item_id, month
                   """, shard: "cityHash64(page_instance_id)"),
        // Exposures and duplicates per group of each dimension (SQLite: exposure_groups), and
        // per user of the pairs' first exposures (`exposures --user`).
        exposureGroups("exposure_groups", perUser: false),
        exposureGroups("exposure_user_groups", perUser: true),
        // The items and users of each group (SQLite: exposure_group_members), as exact sets.
        Rollup(name: "exposure_members", source: ExposurePairs.table, engine: "AggregatingMergeTree",
               columns: """
                   dimension String, group_value String, group_null UInt8, items AggregateFunction(uniqExact, String),
                   users AggregateFunction(uniqExact, String)
                   """,
               partition: nil, order: "dimension, group_value, group_null",
               select: """
                   SELECT tupleElement(g, 1) AS dimension, tupleElement(g, 2) AS group_value, tupleElement(g, 3) AS group_null,
                          uniqExactState(item_id) AS items, uniqExactState(user_id) AS users
                   FROM %SOURCE% ARRAY JOIN \(pairGroups(day: "local_date", position: "toString(feed_position)")) AS g
                   WHERE kind = 2
                   GROUP BY dimension, group_value, group_null
                   """,
               changes: ExposurePairs.changes,
               fills: ["""
                   SELECT tupleElement(g, 1), tupleElement(g, 2), tupleElement(g, 3), uniqExactState(item_id), uniqExactState(user_id)
                   FROM (SELECT item_id, user_id, arrayJoin(\(pairGroups(day: "day", position: "position"))) AS g
                         FROM (\(currentPairs)))
                   GROUP BY tupleElement(g, 1), tupleElement(g, 2), tupleElement(g, 3)
                   """], split: "page_instance_id"),
        // The items of each user's groups but `item` (one item each), as exact sets: a user's own
        // groups have one user. A report reads every state of the marks holding the user's rows,
        // other users' sets included: 256 rows a mark instead of 8,192 (at 10M events, 3 ms
        // instead of 35 ms for the heaviest user's days, in one partition). Partitioned by the
        // month of the pairs' first exposures, so that a load's merges rewrite the sets of its
        // months, not every user's (2.1 s of merging per 1M load into a store of 12M events in one
        // partition, 0.35 s by month; the user's read takes 8-9 ms over 24 months, 3-4 ms over one).
        Rollup(name: "exposure_user_members", source: ExposurePairs.table, engine: "AggregatingMergeTree",
               columns: """
                   user_id String, dimension String, group_value String, group_null UInt8, items AggregateFunction(uniqExact, String),
                   month String
                   """,
               partition: "month", order: "user_id, dimension, group_value, group_null",
               select: """
                   SELECT user_id, tupleElement(g, 1) AS dimension, tupleElement(g, 2) AS group_value, tupleElement(g, 3) AS group_null,
                          uniqExactState(item_id) AS items, \(month)
                   FROM %SOURCE% ARRAY JOIN \(userPairGroups(day: "local_date", position: "toString(feed_position)")) AS g
                   WHERE kind = 2
                   GROUP BY user_id, dimension, group_value, group_null, month
                   """,
               changes: ExposurePairs.changes,
               fills: ["""
                   SELECT user_id, tupleElement(g, 1), tupleElement(g, 2), tupleElement(g, 3), uniqExactState(item_id), substring(day, 1, 7)
                   FROM (SELECT item_id, user_id, day, arrayJoin(\(userPairGroups(day: "day", position: "position"))) AS g
                         FROM (\(currentPairs)))
                   GROUP BY user_id, tupleElement(g, 1), tupleElement(g, 2), tupleElement(g, 3), substring(day, 1, 7)
                   """], granularity: 256, split: "page_instance_id"),
        // The first and last local date each model served at each position (`compare` with no
        // filter): of the exposures that name a model, and of the feedback.
        modelDates("exposure_model_dates", source: "exposure_events", model: "model_info", position: "feed_position"),
        modelDates("feedback_model_dates", source: "feedback_events", model: "toNullable(model_info)",
                   position: "toNullable(feed_position)"),
        // Pairs whose events came from more than one user (`ExposurePairs`): while there is none,
        // a user's counts above are what that user's events alone give.
        counters("exposure_counters", sharedPairsCounter, source: ExposurePairs.table, changes: ExposurePairs.changes, kind: 1,
                 delta: "exposures_delta", split: "page_instance_id", fill: """
            SELECT page_instance_id, item_id FROM %DB%.exposure_events%LOCAL% GROUP BY page_instance_id, item_id HAVING uniqExact(user_id) > 1
            """),
    ]

    /// A table of named counters holding counter `counter`, summed from the change rows of `kind`
    /// (column `delta`) that the ingest writes into `changes` beside `source`, and filled with the
    /// number of rows of `fill` (split into passes by `split`).
    private static func counters(_ name: String, _ counter: String, source: String, changes: String, kind: Int, delta: String,
                                 staleWith: [String] = [], split: String = "user_id", fill: String) -> Rollup {
        Rollup(name: name, source: source, engine: "SummingMergeTree", columns: "name String, value Int64", partition: nil, order: "name",
               select: "SELECT '\(counter)' AS name, sum(\(delta)) AS value FROM %SOURCE% WHERE kind = \(kind) GROUP BY kind",
               changes: changes, fills: ["SELECT '\(counter)', toInt64(count()) FROM (\(fill))"], staleWith: staleWith, split: split)
    }

    /// The first and last local date of the events of `source` per model and position, given
    /// their expressions as `Nullable` (events without a model are left out).
    private static func modelDates(_ name: String, source: String, model: String, position: String) -> Rollup {
        Rollup(name: name, source: source, engine: "AggregatingMergeTree",
               columns: """
                   model String, position Int64, position_null UInt8,
                   first_date AggregateFunction(min, String), last_date AggregateFunction(max, String)
                   """,
               partition: nil, order: "model, position, position_null",
               select: """
                   SELECT assumeNotNull(\(model)) AS model, ifNull(\(position), 0) AS position, toUInt8(isNull(\(position))) AS position_null,
                          minState(local_date) AS first_date, maxState(local_date) AS last_date
                   FROM %SOURCE% WHERE isNotNull(\(model)) GROUP BY model, position, position_null
                   """)
    }

    /// The dislike-rate counters per group, and per user first with `perUser`.
    private static func dislikeGroups(_ name: String, perUser: Bool) -> Rollup {
        let user = perUser ? "user_id, " : ""
        return Rollup(name: name, source: ImpressionStates.reactions, engine: "SummingMergeTree",
                      columns: (perUser ? "user_id String, " : "")
                          + "\(fineGroupColumns), exposed_count Int64, feedback_only_count Int64, like_count Int64, dislike_count Int64",
                      partition: nil, order: user + fineGroup,
                      select: """
                          SELECT \(user)\(fineGroup), sum(exposed_delta) AS exposed_count, sum(feedback_only_delta) AS feedback_only_count,
                                 sum(likes_delta) AS like_count, sum(dislikes_delta) AS dislike_count
                          FROM %SOURCE% WHERE kind = 0 GROUP BY \(user)\(fineGroup)
                          """,
                      changes: ImpressionStates.changes,
                      fills: ["""
                          SELECT \(user)\(fineGroup), toInt64(sum(exposed)), toInt64(countIf(exposed = 0)), toInt64(countIf(reaction = 'like')),
                                 toInt64(countIf(reaction = 'dislike'))
                          FROM (\(impressionGroups)) GROUP BY \(user)\(fineGroup)
                          """], staleWith: [ImpressionStates.exposures])
    }

    /// The reasons of final dislikes per group, and per user first with `perUser`.
    private static func dislikeReasons(_ name: String, perUser: Bool) -> Rollup {
        let user = perUser ? "user_id, " : ""
        return Rollup(name: name, source: ImpressionStates.reactions, engine: "SummingMergeTree",
                      columns: (perUser ? "user_id String, " : "") + "\(fineGroupColumns), reason String, reason_count Int64",
                      partition: nil, order: user + fineGroup + ", reason",
                      select: """
                          SELECT \(user)\(fineGroup), reason, sum(count_delta) AS reason_count
                          FROM %SOURCE% WHERE kind = 1 GROUP BY \(user)\(fineGroup), reason
                          """,
                      changes: ImpressionStates.changes,
                      fills: ["""
                          SELECT \(user)tupleElement(final, 1), toUInt8(0), tupleElement(final, 2), toUInt8(0), tupleElement(final, 4),
                                 toInt64(count())
                          FROM (\(finalReactions))
                          WHERE tupleElement(final, 3) = 'dislike' AND tupleElement(final, 5) = 0
                          GROUP BY \(user)tupleElement(final, 1), tupleElement(final, 2), tupleElement(final, 4)
                          """])
    }

    /// Exposures and duplicates per group of each dimension, and per user first with `perUser`:
    /// those per month of the pairs' first exposures, in marks of 256 rows (as the user's item sets).
    private static func exposureGroups(_ name: String, perUser: Bool) -> Rollup {
        let user = perUser ? "user_id, " : "", byMonth = perUser ? ", month" : "", pairMonth = perUser ? ", substring(day, 1, 7)" : ""
        return Rollup(name: name, source: ExposurePairs.table, engine: "SummingMergeTree",
                      columns: (perUser ? "user_id String, " : "")
                          + "dimension String, group_value String, group_null UInt8, exposure_count Int64, duplicate_count Int64"
                          + (perUser ? ", month String" : ""),
                      partition: perUser ? "month" : nil, order: user + "dimension, group_value, group_null",
                      select: """
                          SELECT \(user)delta_dimension AS dimension, delta_value AS group_value, delta_null AS group_null,
                                 sum(exposures_delta) AS exposure_count, sum(duplicates_delta) AS duplicate_count\(perUser ? ", \(month)" : "")
                          FROM %SOURCE% WHERE kind = 0 GROUP BY \(user)delta_dimension, delta_value, delta_null\(byMonth)
                          """,
                      changes: ExposurePairs.changes,
                      fills: ["""
                          SELECT \(user)tupleElement(g, 1), tupleElement(g, 2), tupleElement(g, 3), toInt64(count()), toInt64(sum(events - 1))\(pairMonth)
                          FROM (SELECT user_id, day, events, arrayJoin(\(pairGroups(day: "day", position: "position"))) AS g FROM (\(currentPairs)))
                          GROUP BY \(user)tupleElement(g, 1), tupleElement(g, 2), tupleElement(g, 3)\(pairMonth)
                          """], granularity: perUser ? 256 : nil, split: "page_instance_id")
    }

    /// A pair's group in each dimension of `exposures --by`: (dimension, value, missing), given
    /// the expressions of its date and position as text.
    private static func pairGroups(day: String, position: String) -> String {
        "[tuple('item', item_id, toUInt8(0)), " + userPairGroups(day: day, position: position).dropFirst()
    }

    /// `pairGroups` without `item`, whose groups each hold one item.
    private static func userPairGroups(day: String, position: String) -> String {
        """
        [tuple('day', \(day), toUInt8(0)), tuple('page', page_id, page_null),
         tuple('model', model_info, model_null), tuple('position', \(position), position_null)]
        """
    }

    /// Each pair's earliest exposure and number of events, from `exposure_pairs`.
    private static let currentPairs = """
        SELECT item_id, tupleElement(f, 3) AS user_id, tupleElement(f, 4) AS day, tupleElement(f, 5) AS page_id,
               tupleElement(f, 6) AS page_null, tupleElement(f, 7) AS model_info, tupleElement(f, 8) AS model_null,
               toString(tupleElement(f, 9)) AS position, tupleElement(f, 10) AS position_null, pair_events AS events
        FROM (SELECT page_instance_id, item_id, argMinMerge(first) AS f, sumMerge(events) AS pair_events
              FROM %SOURCE% GROUP BY page_instance_id, item_id)
        """

    /// Tables of earlier layouts that nothing reads any more, dropped when the schema is created:
    /// the impressions' states the ingest wrote (now `impression_exposures` and `impression_reactions`).
    private static let retired = ["impression_states"]

    /// The counter of impressions seen in more than one group, in `rollup_counters`.
    static let spanningCounter = "impressions_in_several_groups"

    /// The counter of (page instance, item) pairs whose events came from more than one user, in
    /// `exposure_counters`.
    static let sharedPairsCounter = "pairs_of_several_users"

    /// `CREATE TABLE IF NOT EXISTS` of `rollup` under the qualified `name`.
    static func createTable(_ rollup: Rollup, _ name: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(name) (\(rollup.columns))
        ENGINE = \(rollup.engine)\(rollup.partition.map { " PARTITION BY \($0)" } ?? "") ORDER BY (\(rollup.order))\(
            rollup.granularity.map { " SETTINGS index_granularity = \($0)" } ?? "")
        """
    }

    /// The view's (and the backfill's) query over the qualified `source`.
    static func select(_ rollup: Rollup, from source: String) -> String {
        rollup.select.replacingOccurrences(of: "%SOURCE%", with: source)
    }

    /// Creates every rollup missing from the database, filled from its event table, remakes the
    /// ones marked stale, and creates the views (and on a cluster the Distributed tables). A fill
    /// reading more than `rowsPerPass` rows of a table runs in passes (`fill`).
    static func create(using client: ClickHouseClient, cluster: String?, rowsPerPass: Int = rowsPerFillPass) throws {
        let db = client.database
        let tables = try client.tables()
        var existing = Set(tables.keys)
        let layouts = try self.layouts(using: client)
        for table in retired.flatMap({ [$0, $0 + "_local", staleMark($0)] }) where existing.contains(table) {
            try client.execute("DROP TABLE \(db).\(table)")
        }
        var made: Set<String> = []
        for rollup in all {
            let local = cluster == nil ? rollup.name : rollup.name + "_local"
            let source = cluster == nil ? rollup.source : rollup.source + "_local"
            // A cluster's server addressed without the cluster (`report ingest`, `report serve`):
            // its rollups are the Distributed tables `init --cluster` made, fed on every shard.
            if cluster == nil, tables[local] == "Distributed" { continue }
            if existing.contains(local), layouts[local] != layout(of: rollup) {
                // Made by an earlier layout: its view feeds columns it no longer has.
                try client.dropTable("\(local)_mv")
                try client.dropTable("\(local)_changes_mv")
                if cluster != nil { try client.dropTable(rollup.name) }
                try client.execute("DROP TABLE \(db).\(local)")
                existing.remove(local)
            } else if existing.contains(local), ([rollup.source] + rollup.staleWith).contains(where: {
                let table = cluster == nil ? $0 : $0 + "_local"
                return existing.contains(staleMark(table)) || made.contains(table)
            }) {
                try client.execute("DROP TABLE \(db).\(local)")
                existing.remove(local)
            }
            if !existing.contains(local) {
                made.insert(local)
                let fresh = local + "__new"
                try client.dropTable(fresh)
                try client.execute(createTable(rollup, db + "." + fresh))
                try fill(rollup, into: fresh, local: cluster == nil ? "" : "_local", rowsPerPass: rowsPerPass, using: client)
                try client.execute("RENAME TABLE \(db).\(fresh) TO \(db).\(local)")
            }
            if let changes = rollup.changes {
                // Views of an earlier layout read the changes from `source` itself.
                try client.dropTable("\(local)_mv")
                try client.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS \(db).\(local)_changes_mv TO \(db).\(local) AS "
                                   + select(rollup, from: db + "." + changes + (cluster == nil ? "" : "_local")))
            } else {
                try client.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS \(db).\(local)_mv TO \(db).\(local) AS "
                                   + select(rollup, from: db + "." + source))
            }
            if let cluster {
                try client.execute("""
                    CREATE TABLE IF NOT EXISTS \(db).\(rollup.name) AS \(db).\(local)
                    ENGINE = Distributed(\(try ClickHouseSQL.identifier(cluster)), \(db), \(local), \(rollup.shard))
                    """)
            }
        }
        for source in Set(all.flatMap { [$0.source] + $0.staleWith }) {
            let local = cluster == nil ? source : source + "_local"
            try client.dropTable(staleMark(local))
        }
    }

    /// Fills the table `fresh` with `rollup`'s rows: its `fills` (or its view's query), reading
    /// the tables named `%SOURCE%` and `%DB%.NAME%LOCAL%` (`local` the suffix of the server's
    /// own tables). When the largest of them holds more than `rowsPerPass` rows, the queries run
    /// once per pass, each reading the rows whose `split` column hashes to it: a fill keeps in
    /// memory what one pass groups, and since every rollup sums counts or merges states, the
    /// passes' rows add up to the whole's.
    private static func fill(_ rollup: Rollup, into fresh: String, local: String, rowsPerPass: Int,
                             using client: ClickHouseClient) throws {
        let db = client.database
        let queries = (rollup.fills.isEmpty ? [rollup.select] : rollup.fills).map {
            $0.replacingOccurrences(of: "%SOURCE%", with: "%DB%.\(rollup.source)%LOCAL%")
        }
        let tables = Set(queries.flatMap { $0.matches(of: /%DB%\.(\w+)%LOCAL%/).map { String($0.1) + local } })
        let rows = try client.query("""
            SELECT max(rows) FROM (SELECT sum(rows) AS rows FROM system.parts
                                   WHERE active AND database = \(ClickHouseSQL.literal(db))
                                         AND table IN (\(tables.sorted().map(ClickHouseSQL.literal).joined(separator: ", ")))
                                   GROUP BY table)
            """).rows.first?.first?.int ?? 0
        let passes = max(1, (rows + rowsPerPass - 1) / rowsPerPass)
        for pass in 0..<passes {
            for query in queries {
                try client.execute("INSERT INTO \(db).\(fresh) " + query.replacing(/%DB%\.(\w+)%LOCAL%/) { match in
                    let table = "\(db).\(match.1)\(local)"
                    return passes == 1 ? table : "(SELECT * FROM \(table) WHERE cityHash64(\(rollup.split)) % \(passes) = \(pass))"
                })
            }
        }
    }

    /// The columns (names and types) and sorting key of `rollup`, without spaces (the key as
    /// `ClickHouseSchema.comparableKey` spells it), as
    /// `layouts(using:)` reads them from the server.
    private static func layout(of rollup: Rollup) -> String {
        var depth = 0, columns: [String] = [], current = ""
        for character in rollup.columns {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            if character == ",", depth == 0 {
                columns.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        columns.append(current)
        return (columns.map { $0.filter { !$0.isWhitespace } } + [ClickHouseSchema.comparableKey(rollup.order)]).joined(separator: ";")
    }

    /// Each table's columns and sorting key, spelt as `layout(of:)` spells a rollup's.
    private static func layouts(using client: ClickHouseClient) throws -> [String: String] {
        let result = try client.query("""
            SELECT table, arrayStringConcat(groupArray(concat(name, type)), ';') AS columns,
                   any(sorting_key) AS sorting_key
            FROM (SELECT c.table AS table, c.name AS name, c.type AS type, t.sorting_key AS sorting_key
                  FROM system.columns AS c ANY LEFT JOIN (SELECT name AS table, sorting_key FROM system.tables
                                                          WHERE database = \(ClickHouseSQL.literal(client.database))) AS t USING table
                  WHERE c.database = \(ClickHouseSQL.literal(client.database)))
            GROUP BY table
            """)
        var out: [String: String] = [:]
        for row in result.rows {
            guard let table = row[0].text, let columns = row[1].text, let key = row[2].text else { continue }
            out[table] = columns.filter { !$0.isWhitespace } + ";" + ClickHouseSchema.comparableKey(key)
        }
        return out
    }

    /// The name of the mark that `table`'s rollups are stale.
    static func staleMark(_ table: String) -> String {
        table + "__rollups_stale"
    }

    /// Whether `table` feeds any rollup.
    static func feed(_ table: String) -> Bool {
        all.contains { $0.source == table || $0.staleWith.contains(table) }
    }

    /// Marks `table`'s rollups stale before an insert into it is sent again (a no-op for a
    /// table that feeds none). The mark stays until `create(using:cluster:)` has remade them,
    /// once the table holds each row once (after `OPTIMIZE … FINAL`). Returns whether it marked
    /// them.
    @discardableResult
    static func markStale(fedBy table: String, using client: ClickHouseClient) throws -> Bool {
        guard feed(table) else { return false }
        // A Distributed table's rows live on the shards, whose Replicated tables drop a resent block.
        guard try client.tables()[table] != "Distributed" else { return false }
        try client.mark(staleMark(table))
        return true
    }
}
