import ArgumentParser
import TallyRender

/// `report`: load event files into a local store and answer the documented questions.
@main
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Turn app events into answers: ingest event files, then ask for reports.",
        discussion: """
            The store is a SQLite file (--db, $TALLY_DB, else ./tally.sqlite). Every number is defined \
            in the spec's metrics.md; docs/decisions.md says what Tally does where it is silent.
            """,
        subcommands: [IngestCommand.self]
            + ReportCatalog.all.compactMap { definition in reportCommands.first { $0.definition.name == definition.name } }
            + [RejectedCommand.self, QueryCommand.self, SQLCommand.self, ServeCommand.self, SimulateCommand.self, ClickHouseCommand.self])

    /// The subcommand of each report of `ReportCatalog` (listed in the catalog's order).
    static let reportCommands: [any ReportCommand.Type] = [
        SummaryCommand.self, TrendCommand.self, HeatmapCommand.self, ContinueCommand.self, ProgressCommand.self,
        DislikeRateCommand.self, ExposuresCommand.self, LatencyCommand.self, TopCommand.self, RetentionCommand.self,
    ]
}

/// A subcommand that asks one report of `ReportCatalog`: its name and abstract are the definition's.
protocol ReportCommand: ParsableCommand {
    /// The report asked.
    static var definition: ReportDefinition { get }
}

extension ReportCommand {
    /// `report NAME`, with the definition's abstract.
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: definition.name, abstract: definition.abstract)
    }
}
