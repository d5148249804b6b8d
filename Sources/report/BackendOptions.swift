import ArgumentParser
import Foundation
import TallyClickHouse

/// Where events are stored and reports computed: the embedded SQLite file (default) or a
/// ClickHouse server (`docs/clickhouse.md`).
struct BackendOptions: ParsableArguments {
    /// The two backends.
    enum Backend: String, ExpressibleByArgument, CaseIterable {
        case sqlite
        case clickhouse
    }

    @Option(help: "sqlite (the --db file, default) or clickhouse (--clickhouse-url).")
    var backend: Backend = .sqlite

    @Option(help: ArgumentHelp("The ClickHouse HTTP URL (default: $TALLY_CLICKHOUSE_URL, else http://127.0.0.1:8123).", valueName: "url"))
    var clickhouseURL: String?

    @Option(help: ArgumentHelp("The ClickHouse database (default: $TALLY_CLICKHOUSE_DATABASE, else tally).", valueName: "name"))
    var clickhouseDatabase: String?

    /// A client of the ClickHouse server named by the options and the environment.
    func clickHouseClient() throws -> ClickHouseClient {
        let environment = ProcessInfo.processInfo.environment
        return try ClickHouseClient(url: clickhouseURL ?? environment["TALLY_CLICKHOUSE_URL"] ?? "http://127.0.0.1:8123",
                                    database: clickhouseDatabase ?? environment["TALLY_CLICKHOUSE_DATABASE"] ?? "tally")
    }
}
