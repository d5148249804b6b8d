import Foundation
import TallyEvents

/// The mark a batch holds while it is being stored, and the repair of a run stopped mid-batch.
///
/// A batch's events reach their tables (and the views: the feed states, the lookups' sets) in
/// inserts of their own, beside the batch's changes to the feed counters. A run killed before
/// every insert is acknowledged may leave counters that miss the changes of stored events, and
/// an insert stopped between its table and its views leaves rows without their views' rows. So
/// before a batch's first insert the sender creates an empty table `ingest__in_flight_ID` (one
/// name per sender), and drops it once every insert of the batch is acknowledged (after a failed
/// send, only once the events it may have stored have come again). A mark found when the schema
/// is created means a run stopped mid-batch: `recover(using:cluster:)` has the event tables
/// merged and the rollups remade from them. On one server it merges the event tables itself,
/// marks every rollup stale, so that `ClickHouseRollups.create` remakes them, the feed states and
/// counters among them, from the merged events, and marks the lookups' sets for filling again
/// (`ProbeSets`). On a cluster it records a repair request on every shard (`ShardRepair`), which
/// has each shard merge and remake its own tables the same way. Then it drops the marks. The
/// stopped batch's stored events are found as stored by the re-run, the first stored winning.
enum InFlightBatch {
    /// The prefix of every mark's name.
    static let prefix = "ingest__in_flight_"

    /// A new mark's name, unique to the sender that holds it.
    static func newMark() -> String {
        prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    /// Repairs what a run stopped mid-batch left, if it left a mark; call it once the tables
    /// exist and before the rollups are created. On a cluster (`cluster` given, or a server
    /// whose tables are Distributed) the shards' merges and remakes are requested
    /// (`ShardRepair.request`).
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
                try ClickHouseRollups.markStale(fedBy: family.clickHouseTable, using: client)
            }
            try ProbeSets.refill(using: client)
        }
        for mark in marks {
            try client.dropTable(mark)
        }
    }
}
