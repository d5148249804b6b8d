import ArgumentParser

/// `report`: load event files into a local store and answer the documented questions.
@main
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Turn app events into answers: ingest event files, then ask for reports.",
        discussion: """
            The store is a SQLite file (--db, \(StoreFile.defaultHelp)). Every number is defined \
            in the spec's metrics.md; docs/decisions.md says what Tally does where it is silent.
            """,
        subcommands: [IngestCommand.self] + reportCommands
            + [RejectedCommand.self, QueryCommand.self, SQLCommand.self, ServeCommand.self, SimulateCommand.self, ClickHouseCommand.self])

    /// The subcommand of each report of `ReportCatalog.all`, in its order.
    static let reportCommands: [any ReportCommand.Type] = [
        SummaryCommand.self, TrendCommand.self, HeatmapCommand.self, ContinueCommand.self, ProgressCommand.self,
        DislikeRateCommand.self, ExposuresCommand.self, CompareCommand.self, LatencyCommand.self, TopCommand.self, RetentionCommand.self,
    ]
}
