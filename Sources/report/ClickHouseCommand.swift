import ArgumentParser
import TallyClickHouse

/// `report clickhouse init`: create the ClickHouse schema.
struct ClickHouseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clickhouse", abstract: "Manage the ClickHouse backend (docs/clickhouse.md).",
        subcommands: [Init.self])

    /// `report clickhouse init [--cluster NAME]`.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Create the database and tables (idempotent).",
            discussion: """
                On one server: one ReplacingMergeTree table per event family, partitioned by month. \
                With --cluster: NAME_local tables on the server addressed plus Distributed tables NAME \
                over them, sharded by user; run it against every server of the cluster. After an ingest \
                stopped mid-batch it repairs the store; on a cluster it also names each server whose \
                rollups still wait for it to run there.
                """)

        @OptionGroup var storage: BackendOptions

        @Option(help: ArgumentHelp("A cluster of the servers' remote_servers configuration.", valueName: "name"))
        var cluster: String?

        func run() throws {
            let client = try storage.clickHouseClient()
            let lock = try ClickHouseWriterLock.acquire(using: client, command: "report clickhouse init")
            defer { lock.release() }
            let pending = try ClickHouseSchema.create(using: client, cluster: cluster)
            for shard in pending { Terminal.writeError("\(shard)\n") }
            Terminal.write("Created the Tally schema in \(client.database) on \(client.url.absoluteString)\(cluster.map { " (cluster \($0))" } ?? "").\n")
        }
    }
}
