/// The ClickHouse schema (`docs/clickhouse.md`): one ReplacingMergeTree table per event family,
/// partitioned by the month of the local date stored at ingest and ordered for the reports'
/// filters (an event's key is found stored in its family's table: `ClickHouseBatchSender`); the
/// rejected lines; and the tables of the feed counters' changes. A table made by an earlier
/// layout (daily partitions, the keys' table of earlier releases) is converted when the schema
/// is created.
///
/// On one server each table is created under its own name. On a cluster (`cluster` given) each
/// is created as `NAME_local` on the server addressed, plus a Distributed table `NAME` over
/// `NAME_local` on every shard, sharded by user; the queries read and ingest writes the same
/// names either way. Run it against every server of the cluster. A cluster also gets the
/// repair requests' tables (`ShardRepair`).
public enum ClickHouseSchema {
    struct Table {
        var name: String
        var columns: String
        var partition: String?
        var order: String
        var shard: String
        /// `ReplacingMergeTree`, or `Null` for a table whose rows only its views keep.
        var engine = "ReplacingMergeTree"
    }

    /// The partition of a table holding `local_date`: its month, `YYYY-MM`. A local date is the
    /// text `YYYY-MM-DD` (`String`, not `Date`): the validator accepts local dates in
    /// 0001-01-01...9999-12-31, which sort as text, and ClickHouse's `Date` holds only 1970...2105.
    static let monthOfLocalDate = "substring(local_date, 1, 7)"

    static let tables: [Table] = [
        Table(name: "reading_events", columns: """
            event_id String, user_id String, session_id Nullable(String), material_id String, event_type String,
            ts_ms Int64, tz_minutes Int16, local_date String, sequence Nullable(Int64), active_seconds UInt32,
            progress Nullable(Float64), position Nullable(String), target_type String, title Nullable(String),
            knowledge_base_id Nullable(String), platform Nullable(String), app_version Nullable(String), extra Nullable(String)
            """, partition: ClickHouseSchema.monthOfLocalDate, order: "user_id, local_date, material_id, event_id", shard: "cityHash64(user_id)"),
        Table(name: "feedback_events", columns: """
            id String, user_id String, ts_ms Int64, tz_minutes Int16, local_date String, feedback_type String,
            reason Nullable(String), impression_id String, model_info String, feed_position Int64,
            item_id Nullable(String), context String, platform Nullable(String), app_version Nullable(String),
            extra Nullable(String)
            """, partition: ClickHouseSchema.monthOfLocalDate, order: "user_id, impression_id, id", shard: "cityHash64(user_id)"),
        Table(name: "exposure_events", columns: """
            event_id String, user_id String, ts_ms Int64, tz_minutes Int16, local_date String, page_id Nullable(String),
            page_instance_id String, item_id String, impression_id Nullable(String), model_info Nullable(String),
            feed_position Nullable(Int64), visible_ratio Nullable(Float64), dwell_ms Nullable(Int64),
            platform Nullable(String), app_version Nullable(String), extra Nullable(String)
            """, partition: ClickHouseSchema.monthOfLocalDate, order: "user_id, page_instance_id, item_id, event_id", shard: "cityHash64(user_id)"),
        Table(name: "observability_events", columns: """
            event_id String, user_id String, ts_ms Int64, tz_minutes Int16, local_date String, event_name String,
            session_id String, properties String, prop_keys Array(String), prop_values Array(String),
            prop_numbers Array(Nullable(Float64)), platform Nullable(String), app_version Nullable(String),
            extra Nullable(String)
            """, partition: ClickHouseSchema.monthOfLocalDate, order: "event_name, user_id, event_id", shard: "cityHash64(user_id)"),
        Table(name: "rejected_lines", columns: """
            file String, line Int64, element Int64, code String, field Nullable(String), message String,
            event_key Nullable(String), raw String
            """, partition: nil, order: "file, line, element, cityHash64(raw)", shard: "cityHash64(file)"),
        // The changes a batch brings to the feed counters (`ImpressionStates`, `ExposurePairs`):
        // views sum them into the counters (`ClickHouseRollups`) and nothing stores them. Each
        // row is under the user whose states it comes from, so on a cluster it reaches their
        // shard, whose counters a remake from its own states replaces.
        Table(name: ImpressionStates.changes, columns: """
            user_id String, kind UInt8, model_info String, model_null UInt8, feed_position Int64, position_null UInt8,
            reason String, exposed_delta Int64, feedback_only_delta Int64, likes_delta Int64, dislikes_delta Int64, count_delta Int64
            """, partition: nil, order: "", shard: "cityHash64(user_id)", engine: "Null"),
        Table(name: ExposurePairs.changes, columns: """
            user_id String, kind UInt8, delta_dimension String, delta_value String, delta_null UInt8, exposures_delta Int64,
            duplicates_delta Int64, item_id String, local_date String, page_id String, page_null UInt8, model_info String,
            model_null UInt8, feed_position Int64, position_null UInt8
            """, partition: nil, order: "", shard: "cityHash64(user_id)", engine: "Null"),
    ]

    /// The statements that create the schema in `database` (idempotent: `IF NOT EXISTS`).
    public static func statements(database: String, cluster: String? = nil) throws -> [String] {
        let db = try ClickHouseSQL.identifier(database)
        var out = ["CREATE DATABASE IF NOT EXISTS \(db)"]
        for table in tables {
            let local = cluster == nil ? table.name : table.name + "_local"
            out.append(table.create(db + "." + local))
            if let cluster {
                out.append("""
                    CREATE TABLE IF NOT EXISTS \(db).\(table.name) AS \(db).\(local)
                    ENGINE = Distributed(\(try ClickHouseSQL.identifier(cluster)), \(db), \(local), \(table.shard))
                    """)
            }
        }
        if let cluster {
            out += try ShardRepair.statements(database: db, cluster: cluster)
        }
        return out
    }

    /// Creates the schema on the server `client` talks to, first converting the tables an
    /// earlier layout made (`ClickHouseSchemaConversion`), then repairs what a run stopped
    /// mid-batch left (`InFlightBatch`), then the rollups the reports read
    /// (`ClickHouseRollups`), filled from the event tables where they are missing or stale, then
    /// on one server the lookups' sets (`ProbeSets`), filled where they are missing or marked. On a
    /// server of a cluster holding a repair request (`ShardRepair`), with `cluster` given or not,
    /// its local tables are merged and its rollups remade from them. Returns the shards whose
    /// repair still waits for a command run against one of their servers (none on one server).
    @discardableResult
    public static func create(using client: ClickHouseClient, cluster: String? = nil) throws -> [PendingShardRepair] {
        let statements = try statements(database: client.database, cluster: cluster)
        try client.execute(statements[0], useDatabase: false)
        try ClickHouseSchemaConversion(client: client, cluster: cluster).run()
        for statement in statements.dropFirst() {
            try client.execute(statement, useDatabase: false)
        }
        try InFlightBatch.recover(using: client, cluster: cluster)
        let repair = try ShardRepair.begin(using: client)
        try ClickHouseRollups.create(using: client, cluster: cluster ?? repair)
        try ShardRepair.finish(repair, using: client)
        try ProbeSets.create(using: client, cluster: cluster ?? repair)
        return try ShardRepair.pending(using: client, cluster: cluster ?? repair)
    }

    /// A partition or sorting key as `system.tables` spells it, made comparable across releases:
    /// without spaces, and without parentheses around the whole key (`ORDER BY (name)` reads
    /// `name` on 18.16, `(name)` on current releases; a key of several columns reads `a, b` on both).
    static func comparableKey(_ key: String) -> String {
        var text = Substring(key.filter { !$0.isWhitespace })
        while text.first == "(", closingParenthesis(of: text) == text.indices.last {
            text = text.dropFirst().dropLast()
        }
        return String(text)
    }

    /// Where the parenthesis that opens `text` closes.
    private static func closingParenthesis(of text: Substring) -> Substring.Index? {
        var depth = 0
        for index in text.indices {
            if text[index] == "(" {
                depth += 1
            } else if text[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }
}

extension ClickHouseSchema.Table {
    /// `CREATE TABLE IF NOT EXISTS` of this table under the qualified `name`.
    func create(_ name: String) -> String {
        guard engine == "ReplacingMergeTree" else { return "CREATE TABLE IF NOT EXISTS \(name) (\(columns)) ENGINE = \(engine)" }
        return """
            CREATE TABLE IF NOT EXISTS \(name) (\(columns))
            ENGINE = ReplacingMergeTree\(partition.map { " PARTITION BY \($0)" } ?? "") ORDER BY (\(order))
            """
    }
}
