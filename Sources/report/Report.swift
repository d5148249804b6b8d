import ArgumentParser
import TallyRender

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
        subcommands: [IngestCommand.self]
            + ReportCatalog.all.indices.map(command(at:))
            + [RejectedCommand.self, QueryCommand.self, SQLCommand.self, ServeCommand.self, SimulateCommand.self, ClickHouseCommand.self])

    /// The reports of `ReportCatalog` with a subcommand written for them (their own question).
    static let reportCommands: [any ReportCommand.Type] = [
        SummaryCommand.self, TrendCommand.self, HeatmapCommand.self, ContinueCommand.self, ProgressCommand.self,
        DislikeRateCommand.self, ExposuresCommand.self, LatencyCommand.self, TopCommand.self,
    ]

    /// The generic subcommand of each position of `ReportCatalog.all`, for the reports answered
    /// through the generic path.
    static let catalogCommands = FirstPosition.commands(count: ReportCatalog.all.count)

    /// The subcommand of the report at `index` of the catalog: the one written for it, else the
    /// generic one of its position.
    static func command(at index: Int) -> any ReportCommand.Type {
        let definition = ReportCatalog.all[index]
        if let written = reportCommands.first(where: { $0.definition.name == definition.name }) { return written }
        return catalogCommands[index]
    }
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
