/// The rollups the reports read instead of the event tables (`docs/clickhouse.md`, Rollups):
/// SummingMergeTree and AggregatingMergeTree tables, each fed by a materialized view on one
/// event table, so every insert into that table (already free of duplicate keys) adds to them.
/// They mirror what the SQLite store keeps at ingest (`reading_daily`, `reading_daily_all`,
/// `material_state`, `reading_user_state`, `event_user_counts`).
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
    }

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
               columns: "user_id String, local_date Date, material_id String, seconds UInt64, events UInt64",
               partition: "toYYYYMM(local_date)", order: "user_id, local_date, material_id",
               select: """
                   SELECT user_id, local_date, material_id, sum(toUInt64(active_seconds)) AS seconds, count() AS events
                   FROM %SOURCE% GROUP BY user_id, local_date, material_id
                   """),
        Rollup(name: "reading_daily_all", source: "reading_events", engine: "SummingMergeTree",
               columns: "local_date Date, material_id String, seconds UInt64, events UInt64",
               partition: "toYYYYMM(local_date)", order: "local_date, material_id",
               select: """
                   SELECT local_date, material_id, sum(toUInt64(active_seconds)) AS seconds, count() AS events
                   FROM %SOURCE% GROUP BY local_date, material_id
                   """),
        Rollup(name: "reading_materials", source: "reading_events", engine: "AggregatingMergeTree",
               columns: "user_id String, material_id String, " + materialColumns,
               partition: nil, order: "user_id, material_id",
               select: "SELECT user_id, material_id, \(materialStates) FROM %SOURCE% GROUP BY user_id, material_id"),
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
    ]

    /// `CREATE TABLE IF NOT EXISTS` of `rollup` under the qualified `name`.
    static func createTable(_ rollup: Rollup, _ name: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(name) (\(rollup.columns))
        ENGINE = \(rollup.engine)\(rollup.partition.map { " PARTITION BY \($0)" } ?? "") ORDER BY (\(rollup.order))
        """
    }

    /// The view's (and the backfill's) query over the qualified `source`.
    static func select(_ rollup: Rollup, from source: String) -> String {
        rollup.select.replacingOccurrences(of: "%SOURCE%", with: source)
    }

    /// Creates every rollup missing from the database, filled from its event table, remakes the
    /// ones marked stale, and creates the views (and on a cluster the Distributed tables).
    static func create(using client: ClickHouseClient, cluster: String?) throws {
        let db = client.database
        var existing = Set(try client.query(
            "SELECT name FROM system.tables WHERE database = \(ClickHouseSQL.literal(db))").rows.compactMap(\.first?.text))
        let layouts = try self.layouts(using: client)
        for rollup in all {
            let local = cluster == nil ? rollup.name : rollup.name + "_local"
            let source = cluster == nil ? rollup.source : rollup.source + "_local"
            if existing.contains(local), layouts[local] != layout(of: rollup) {
                // Made by an earlier layout: its view feeds columns it no longer has.
                try client.execute("DROP TABLE IF EXISTS \(db).\(local)_mv")
                if cluster != nil { try client.execute("DROP TABLE IF EXISTS \(db).\(rollup.name)") }
                try client.execute("DROP TABLE \(db).\(local)")
                existing.remove(local)
            } else if existing.contains(staleMark(source)), existing.contains(local) {
                try client.execute("DROP TABLE \(db).\(local)")
                existing.remove(local)
            }
            if !existing.contains(local) {
                let fresh = local + "__new"
                try client.execute("DROP TABLE IF EXISTS \(db).\(fresh)")
                try client.execute(createTable(rollup, db + "." + fresh))
                try client.execute("INSERT INTO \(db).\(fresh) " + select(rollup, from: db + "." + source))
                try client.execute("RENAME TABLE \(db).\(fresh) TO \(db).\(local)")
            }
            try client.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS \(db).\(local)_mv TO \(db).\(local) AS "
                               + select(rollup, from: db + "." + source))
            if let cluster {
                try client.execute("""
                    CREATE TABLE IF NOT EXISTS \(db).\(rollup.name) AS \(db).\(local)
                    ENGINE = Distributed(\(try ClickHouseSQL.identifier(cluster)), \(db), \(local), rand())
                    """)
            }
        }
        for source in Set(all.map(\.source)) {
            let local = cluster == nil ? source : source + "_local"
            try client.execute("DROP TABLE IF EXISTS \(db).\(staleMark(local))")
        }
    }

    /// The columns (names and types) and sorting key of `rollup`, without spaces, as
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
        return (columns + [rollup.order]).map { $0.filter { !$0.isWhitespace } }.joined(separator: ";")
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
            out[table] = (columns + ";" + key).filter { !$0.isWhitespace }
        }
        return out
    }

    /// The name of the mark that `table`'s rollups are stale.
    static func staleMark(_ table: String) -> String {
        table + "__rollups_stale"
    }

    /// Whether `table` feeds any rollup.
    static func feed(_ table: String) -> Bool {
        all.contains { $0.source == table }
    }

    /// Marks `table`'s rollups stale before an insert into it is sent again (a no-op for a
    /// table that feeds none). The mark stays until `remake(fedBy:using:)` has rebuilt them.
    static func markStale(fedBy table: String, using client: ClickHouseClient) throws {
        guard feed(table) else { return }
        let engine = try client.query(
            "SELECT engine FROM system.tables WHERE database = \(ClickHouseSQL.literal(client.database)) AND name = \(ClickHouseSQL.literal(table))")
        // A Distributed table's rows live on the shards, whose Replicated tables drop a resent block.
        guard engine.rows.first?.first?.text != "Distributed" else { return }
        try client.execute("CREATE TABLE IF NOT EXISTS \(client.database).\(staleMark(table)) (stale UInt8) ENGINE = TinyLog")
    }

    /// Remakes the rollups `table` feeds from its rows, if they are marked stale; call it once
    /// the table holds each row once (after `OPTIMIZE … FINAL`).
    static func remake(fedBy table: String, using client: ClickHouseClient) throws {
        guard feed(table) else { return }
        try create(using: client, cluster: nil)
    }
}
