import Foundation
import TallyEvents

/// The in-memory sets that keep a batch's lookups at the cost of the batch, not of the store.
///
/// A batch looks up its keys in the event tables, its (page instance, item) pairs in
/// `exposure_pairs` and its (user, impression) pairs in `impression_exposures` and
/// `impression_reactions`. Random keys (UUIDv4) put some value of every batch in every granule
/// of a table sorted by them, and the event tables are sorted by user, not by key, so a plain
/// `IN` reads the whole table: the ingest slows as the store grows. So each lookup first probes
/// a `Set` table holding `cityHash64` of every stored value of its columns, kept by materialized
/// views on the event tables: only the batch's values the set holds (the duplicates, the pairs
/// seen before, and the rare hash collision) are then looked up in the table itself, and a
/// handful of values reads a handful of granules. The set is a filter and the table answers, so
/// a set holding more than the table (a hash collision, a key or state the table lost) costs a
/// read and changes no answer; only a value the table holds and the set lacks would, and no
/// write leaves one (below).
///
/// `event_key_probe` is fed by all four event tables (a family's name and an event's key);
/// `exposure_pair_probe` and `impression_probe` by those whose events make the pairs and states
/// (exposures; exposures with an impression and feedback), whose inserts also make the states,
/// so a state always has its value in the set, also after its table is remade from the events.
/// A set missing from the database, or whose filling was interrupted, is made and filled from
/// its sources when the schema is created (`create(using:cluster:)`); a run stopped mid-batch,
/// whose inserts may have stored rows without their views' rows, has the sets filled again
/// (`refill(using:)`).
///
/// A `Set` table lives in the server's memory (16–32 bytes a value, 8-byte hashes in a hash table
/// at most half full: 0.2–0.45 GB per 10M events of the benchmark's mix; loaded from its files when
/// the server starts). On a cluster each server's set would only hold what its shard stores, so
/// there are none: the lookups read the tables (the Distributed ones) as a whole.
enum ProbeSets {
    /// A set: its table, the looked-up columns, and the tables whose inserts feed it.
    struct Probe {
        /// The `Set` table.
        var name: String
        /// The columns whose `cityHash64` it holds, as the lookup's external table names them.
        var columns: [String]
        /// Each source table and the expressions (of `columns`' values) and condition it feeds.
        var sources: [(table: String, values: [String], condition: String?)]

        /// The condition that a row of the lookup's external table has its values in the set.
        var holds: String { "cityHash64(\(columns.joined(separator: ", "))) IN \(name)" }
    }

    static let eventKeys = Probe(name: "event_key_probe", columns: ["family", "key"], sources: EventFamily.allCases.map {
        ($0.clickHouseTable, [ClickHouseSQL.literal($0.rawValue), $0.clickHouseColumns[0]], nil)
    })
    static let exposurePairs = Probe(name: "exposure_pair_probe", columns: ["page_instance_id", "item_id"],
                                     sources: [("exposure_events", ["page_instance_id", "item_id"], nil)])
    static let impressions = Probe(name: "impression_probe", columns: ["user_id", "impression_id"], sources: [
        ("exposure_events", ["user_id", "assumeNotNull(impression_id)"], "impression_id IS NOT NULL"),
        ("feedback_events", ["user_id", "impression_id"], nil),
    ])
    static let all = [eventKeys, exposurePairs, impressions]

    /// The mark a set carries from its creation until it is filled (a TinyLog table).
    static func fillingMark(_ probe: Probe) -> String {
        probe.name + "__filling"
    }

    /// Makes every set the database lacks, and fills those created or marked for filling; on one
    /// server only (a database whose tables are Distributed, or `cluster` given, gets none).
    /// Each set's views exist before it is filled, so no insert in between is missed.
    static func create(using client: ClickHouseClient, cluster: String?) throws {
        guard cluster == nil, try ShardRepair.cluster(using: client) == nil else { return }
        let db = client.database
        let tables = try client.tables()
        for probe in all where tables[probe.name] == nil || tables[fillingMark(probe)] != nil {
            try client.mark(fillingMark(probe))
            try client.execute("CREATE TABLE IF NOT EXISTS \(db).\(probe.name) (h UInt64) ENGINE = Set")
            for (index, source) in probe.sources.enumerated() {
                try client.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS \(db).\(probe.name)_mv\(index) TO \(db).\(probe.name) AS "
                                   + feed(probe, source, from: db + "." + source.table))
            }
            for source in probe.sources {
                try client.execute("INSERT INTO \(db).\(probe.name) " + feed(probe, source, from: db + "." + source.table))
            }
            try client.dropTable(fillingMark(probe))
        }
    }

    /// Marks every set of the database for filling again from its sources, which the next
    /// `create(using:cluster:)` does (after a run stopped mid-batch).
    static func refill(using client: ClickHouseClient) throws {
        for probe in all {
            try client.mark(fillingMark(probe))
        }
    }

    /// Whether the database's sets are complete, so that the lookups can probe them.
    static func ready(using client: ClickHouseClient) throws -> Bool {
        let tables = try client.tables()
        return all.allSatisfy { tables[$0.name] != nil && tables[fillingMark($0)] == nil }
    }

    /// The condition a lookup puts on `probe`'s columns of the table it reads (named `names` there
    /// when not as in the set), given the batch's values as the external table `batch`: with
    /// `probing`, only the values the set holds.
    static func condition(_ probe: Probe, batch: String, probing: Bool, as names: String? = nil) -> String {
        let columns = probe.columns.joined(separator: ", ")
        guard probing else { return "(\(names ?? columns)) IN (SELECT \(columns) FROM \(batch))" }
        return "(\(names ?? columns)) IN (SELECT \(columns) FROM \(batch) WHERE \(probe.holds))"
    }

    /// The `SELECT` of the hashes `source` feeds into `probe`, reading `table`.
    private static func feed(_ probe: Probe, _ source: (table: String, values: [String], condition: String?), from table: String) -> String {
        "SELECT cityHash64(\(source.values.joined(separator: ", "))) AS h FROM \(table)" + (source.condition.map { " WHERE \($0)" } ?? "")
    }
}
