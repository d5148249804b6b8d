import Foundation
import TallyEvents

/// A shard of a cluster whose rollups still wait to be remade from its own events after a run
/// stopped mid-batch (`ShardRepair`): until `report clickhouse init --cluster` (or `report
/// ingest` / `report serve`) has run against one of its servers, the reports may count that
/// shard's share of the stopped batch wrongly.
public struct PendingShardRepair: Sendable, Equatable, CustomStringConvertible {
    /// The cluster, as `remote_servers` names it.
    public var cluster: String
    /// The shard's number in `system.clusters`, from 1.
    public var shard: Int
    /// The host of the shard's first replica, as the configuration names it.
    public var host: String
    /// That replica's native (TCP) port, as `system.clusters` gives it; its HTTP port is not known here.
    public var port: Int

    /// What an operator has to do, in one sentence.
    public var description: String {
        "Shard \(shard) of cluster \(cluster) (\(host), native port \(port)) still has rollups to remake after a stopped ingest; "
            + "its answers are off until `report clickhouse init --cluster \(cluster) --clickhouse-url URL` runs against that server."
    }
}

/// The repair of every shard's rollups after a run stopped mid-batch on a cluster.
///
/// The in-flight mark is found on the server the stopped ingest addressed, but the batch's
/// events, feed states and rollups live on the shards of their users, and a server can merge
/// and remake only its own tables (without ZooKeeper there is no `ON CLUSTER` DDL). So the
/// server that finds the mark records a request on every shard: one row per slot of the
/// cluster's weights inserted into the Distributed table `rollup_repairs`, sharded by the slot,
/// so that each shard's `rollup_repairs_local` receives at least one. Whenever the schema is
/// created on a server (`init --cluster`, `report ingest`, `report serve`), a request found in its
/// own `rollup_repairs_local` has it merge its local event tables, mark their rollups stale,
/// remake them from its own events, and then clear the request. Requests still held by other
/// shards are returned by `pending(using:)`, for the command to name them.
enum ShardRepair {
    /// The request table's name; its local tables are `NAME_local`.
    static let table = "rollup_repairs"

    /// The statements that create the request tables on a server of `cluster` (qualified names).
    static func statements(database db: String, cluster: String) throws -> [String] {
        [
            "CREATE TABLE IF NOT EXISTS \(db).\(table)_local (slot UInt32, shard UInt32, cluster String) ENGINE = MergeTree ORDER BY slot",
            """
            CREATE TABLE IF NOT EXISTS \(db).\(table) AS \(db).\(table)_local
            ENGINE = Distributed(\(try ClickHouseSQL.identifier(cluster)), \(db), \(table)_local, slot)
            """,
        ]
    }

    /// The cluster whose Distributed tables the database's tables are, read from
    /// `reading_events`'s definition; nil on one server.
    static func cluster(using client: ClickHouseClient) throws -> String? {
        let db = client.database
        guard try client.tables()["reading_events"] == "Distributed" else { return nil }
        let statement = try client.query("SHOW CREATE TABLE \(db).reading_events").rows.first?.first?.text ?? ""
        guard let start = statement.range(of: "Distributed(")?.upperBound,
              let end = statement[start...].firstIndex(where: { $0 == "," || $0 == ")" }) else {
            throw ClickHouseError.unexpectedAnswer("no cluster in the definition of \(db).reading_events: \(statement)")
        }
        let name = statement[start..<end].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "'`\"")))
        guard !name.isEmpty else { throw ClickHouseError.unexpectedAnswer("no cluster in the definition of \(db).reading_events") }
        return name
    }

    /// Records a repair request on every shard of `cluster`. The Distributed engine sends a row
    /// whose key is `k` to the shard owning slot `k % total weight`, the shards owning as many
    /// consecutive slots as their weight, in order; one row per slot reaches every shard.
    static func request(_ cluster: String, using client: ClickHouseClient) throws {
        let shards = try client.query("""
            SELECT shard_num, any(shard_weight) FROM system.clusters WHERE cluster = \(ClickHouseSQL.literal(cluster))
            GROUP BY shard_num ORDER BY shard_num
            """)
        var rows = RowBinaryWriter()
        var slot = 0
        for shard in shards.rows {
            guard case .int(let number) = shard[0], case .int(let weight) = shard[1] else { continue }
            for _ in 0..<max(weight, 0) {
                rows.uint32(slot)
                rows.uint32(Int(number))
                rows.string(cluster)
                slot += 1
            }
        }
        guard slot > 0 else {
            throw ClickHouseError.unexpectedAnswer("cluster \(cluster) is not in system.clusters of \(client.url.absoluteString)")
        }
        try client.insert(into: table, columns: ["slot", "shard", "cluster"], rows: rows)
    }

    /// When this server holds a request: merges its local event tables and marks their rollups
    /// stale, so that `ClickHouseRollups.create` remakes them from its own events; returns the
    /// request's cluster (nil when there is none), for that creation and for `finish`.
    static func begin(using client: ClickHouseClient) throws -> String? {
        let db = client.database
        guard try client.tables()[table + "_local"] != nil,
              let cluster = try client.query("SELECT DISTINCT cluster FROM \(db).\(table)_local LIMIT 1").rows.first?.first?.text
        else { return nil }
        for family in EventFamily.allCases {
            try client.mergeFinal("\(db).\(family.clickHouseTable)_local")
        }
        for family in EventFamily.allCases {
            try client.mark(ClickHouseRollups.staleMark(family.clickHouseTable + "_local"))
        }
        return cluster
    }

    /// Clears this server's requests once its rollups are remade (`cluster` is what `begin` returned).
    static func finish(_ cluster: String?, using client: ClickHouseClient) throws {
        guard cluster != nil else { return }
        try client.execute("TRUNCATE TABLE \(client.database).\(table)_local")
    }

    /// The shards whose requests are still waiting (none on one server), each read on its own
    /// first replica with `remote()`: a Distributed read fails as a whole while any shard lacks the
    /// table, as every shard but the first does while `init --cluster` is run server by server.
    /// A shard that cannot be read (`ClickHouseError.shardUnreachable`: not initialised, so holding
    /// no request, or down) is not named.
    static func pending(using client: ClickHouseClient, cluster: String?) throws -> [PendingShardRepair] {
        guard let cluster = try cluster ?? self.cluster(using: client) else { return [] }
        let db = client.database
        let shards = try client.query("""
            SELECT shard_num, host_name, port FROM system.clusters
            WHERE cluster = \(ClickHouseSQL.literal(cluster)) AND replica_num = 1 ORDER BY shard_num
            """)
        var out: [PendingShardRepair] = []
        for row in shards.rows {
            guard case .int(let shard) = row[0], let host = row[1].text, case .int(let port) = row[2] else { continue }
            let waiting: ClickHouseResult
            do {
                waiting = try client.query(
                    "SELECT count() FROM remote(\(ClickHouseSQL.literal("\(host):\(port)")), \(db), \(table)_local)")
            } catch let error as ClickHouseError where ClickHouseError.shardUnreachable.contains(error.code ?? 0) {
                continue
            }
            if waiting.rows.first?.first != .int(0) {
                out.append(PendingShardRepair(cluster: cluster, shard: Int(shard), host: host, port: Int(port)))
            }
        }
        return out
    }
}
