/// Converts the tables of a database made by an earlier layout of `ClickHouseSchema` (such as
/// the daily partitions of the first one) to the current layout, keeping every row.
///
/// A table whose partition key or sorting key differs from the current one is copied into
/// `NAME__new` (made afresh, with the current layout), then the two swap names and the old one
/// is dropped. Each step leaves a state the next run recognises, so a run stopped at any point
/// converges: a half-filled `NAME__new` is made again, a `NAME__new` left without `NAME` (the
/// swap stopped half way) takes its name, and a leftover `NAME__old` is dropped. On a cluster it
/// converts this server's `NAME_local` tables; the Distributed tables address them by name.
///
/// Earlier releases also kept every event's key in `event_keys`, which fed the keys' set
/// (`ProbeSets`); the event tables answer for their keys and feed the set themselves. The
/// set's old view, the set and the table are dropped in that order (the set is made and filled
/// again from the event tables by `ProbeSets.create`), so a run stopped in between finds the
/// table still there and drops the rest.
struct ClickHouseSchemaConversion {
    let client: ClickHouseClient
    let cluster: String?

    /// What the server says of one table.
    private struct Layout: Equatable {
        var partitionKey: String
        var sortingKey: String
    }

    /// Converts every table that needs it.
    func run() throws {
        let db = client.database
        let tables = try client.tables()
        if tables["event_keys"] != nil || tables["event_keys_local"] != nil {
            for name in ["\(ProbeSets.eventKeys.name)_mv0", ProbeSets.eventKeys.name, "event_keys", "event_keys_local"] {
                try client.dropTable(name)
            }
        }
        let existing = try layouts()
        for table in ClickHouseSchema.tables {
            let name = cluster == nil ? table.name : table.name + "_local"
            let fresh = name + "__new", old = name + "__old"
            if existing[name] == nil, existing[fresh] != nil {
                try client.execute("RENAME TABLE \(db).\(fresh) TO \(db).\(name)")
            } else if let layout = existing[name], layout != Self.layout(of: table) {
                try client.dropTable(fresh)
                try client.execute(table.create(db + "." + fresh))
                try client.execute("INSERT INTO \(db).\(fresh) SELECT * FROM \(db).\(name)")
                try client.execute("RENAME TABLE \(db).\(name) TO \(db).\(old), \(db).\(fresh) TO \(db).\(name)")
            }
            try client.dropTable(old)
        }
    }

    /// The layout `table` has when created now, as `system.tables` spells it.
    private static func layout(of table: ClickHouseSchema.Table) -> Layout {
        Layout(partitionKey: ClickHouseSchema.comparableKey(table.partition ?? ""), sortingKey: ClickHouseSchema.comparableKey(table.order))
    }

    /// The partition and sorting keys of the database's MergeTree tables, by name (not the
    /// Distributed tables of a cluster, which hold no rows of their own).
    private func layouts() throws -> [String: Layout] {
        let result = try client.query("""
            SELECT name, partition_key, sorting_key FROM system.tables
            WHERE database = \(ClickHouseSQL.literal(client.database)) AND engine LIKE '%MergeTree'
            """)
        var out: [String: Layout] = [:]
        for row in result.rows {
            guard case .text(let name) = row[0], case .text(let partition) = row[1], case .text(let sorting) = row[2] else { continue }
            out[name] = Layout(partitionKey: ClickHouseSchema.comparableKey(partition), sortingKey: ClickHouseSchema.comparableKey(sorting))
        }
        return out
    }
}
