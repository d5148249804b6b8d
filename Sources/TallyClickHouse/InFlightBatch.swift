import Foundation
import TallyEvents

/// The mark a batch holds while it is being stored, and the repair of a run stopped mid-batch.
///
/// A batch's events reach their tables (and the views, and the feed states) before its keys reach
/// `event_keys`. A run killed in between leaves events whose keys are not stored, which a later run
/// would store again and the rollups count twice; a run killed between a batch's events and its
/// changes to the feed counters leaves counters that miss them. So before a batch's first insert
/// the sender creates an empty table `ingest__in_flight_ID` (one name per sender), and drops it
/// once the batch's keys are stored (after a failed send, only once the events it may have left
/// without keys have come again). A mark found when the schema is created means a run stopped
/// mid-batch: `recover(using:cluster:)` stores the keys of the stored events that `event_keys`
/// lacks (so a re-run counts those events as duplicates, the first stored winning). On one server
/// it first merges the event tables, and marks every rollup stale, so that
/// `ClickHouseRollups.create` remakes them, the feed states and counters among them, from the
/// merged events, and marks the lookups' sets for filling again (`ProbeSets`), which an insert
/// stopped between its table and its views may have left short. On a cluster it first records a
/// repair request on every shard (`ShardRepair`), which has each shard merge and remake its own
/// tables the same way. Then it drops the marks.
enum InFlightBatch {
    /// The prefix of every mark's name.
    static let prefix = "ingest__in_flight_"

    /// A new mark's name, unique to the sender that holds it.
    static func newMark() -> String {
        prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    /// Marks a batch in flight under `mark`.
    static func begin(_ mark: String, using client: ClickHouseClient) throws {
        try client.mark(mark)
    }

    /// Drops `mark`: its batch is stored, keys included.
    static func end(_ mark: String, using client: ClickHouseClient) throws {
        try client.execute("DROP TABLE IF EXISTS \(client.database).\(mark)")
    }

    /// Repairs what a run stopped mid-batch left, if it left a mark; call it once the tables
    /// exist and before the rollups are created. On a cluster (`cluster` given, or a server
    /// whose tables are Distributed) the shards' merges and remakes are requested
    /// (`ShardRepair.request`) and the missing keys stored through the Distributed tables.
    static func recover(using client: ClickHouseClient, cluster: String?) throws {
        let db = client.database
        let marks = try client.tables().keys.filter { $0.hasPrefix(prefix) }
        guard !marks.isEmpty else { return }
        let cluster = try cluster ?? ShardRepair.cluster(using: client)
        if let cluster {
            try ShardRepair.request(cluster, using: client)
        } else {
            for family in EventFamily.allCases {
                try client.mergeFinal("\(db).\(family.clickHouseTable)")
            }
        }
        for family in EventFamily.allCases {
            let key = family.clickHouseColumns[0], name = ClickHouseSQL.literal(family.rawValue)
            try client.execute("""
                INSERT INTO \(db).event_keys (family, key)
                SELECT DISTINCT \(name), \(key) FROM \(db).\(family.clickHouseTable)
                WHERE \(key) GLOBAL NOT IN (SELECT key FROM \(db).event_keys WHERE family = \(name))
                """, settings: ["insert_distributed_sync": "1"])
        }
        for family in EventFamily.allCases where cluster == nil {
            try ClickHouseRollups.markStale(fedBy: family.clickHouseTable, using: client)
        }
        if cluster == nil {
            try ProbeSets.refill(using: client)
        }
        for mark in marks {
            try end(mark, using: client)
        }
    }
}
