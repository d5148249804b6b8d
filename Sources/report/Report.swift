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
            + ReportCatalog.all.indices.map(command(at:))
            + [RejectedCommand.self, QueryCommand.self, SQLCommand.self, ServeCommand.self, SimulateCommand.self, ClickHouseCommand.self])

    /// The reports of `ReportCatalog` with a subcommand written for them (their own question).
    static let reportCommands: [any ReportCommand.Type] = [
        SummaryCommand.self, TrendCommand.self, HeatmapCommand.self, ContinueCommand.self, ProgressCommand.self,
        DislikeRateCommand.self, ExposuresCommand.self, LatencyCommand.self, TopCommand.self,
    ]

    /// The generic subcommand of each position of `ReportCatalog.all`, for the reports answered
    /// through the generic path; `ReportCatalogCommandTests` checks there are enough.
    static let catalogCommands: [any ReportCommand.Type] = [
        CatalogCommand<0>.self, CatalogCommand<1>.self, CatalogCommand<2>.self, CatalogCommand<3>.self,
        CatalogCommand<4>.self, CatalogCommand<5>.self, CatalogCommand<6>.self, CatalogCommand<7>.self,
        CatalogCommand<8>.self, CatalogCommand<9>.self, CatalogCommand<10>.self, CatalogCommand<11>.self,
        CatalogCommand<12>.self, CatalogCommand<13>.self, CatalogCommand<14>.self, CatalogCommand<15>.self,
        CatalogCommand<16>.self, CatalogCommand<17>.self, CatalogCommand<18>.self, CatalogCommand<19>.self,
        CatalogCommand<20>.self, CatalogCommand<21>.self, CatalogCommand<22>.self, CatalogCommand<23>.self,
    ]

    /// The subcommand of the report at `index` of the catalog: the one written for it, else the
    /// generic one of its position.
    static func command(at index: Int) -> any ReportCommand.Type {
        let definition = ReportCatalog.all[index]
        if let written = reportCommands.first(where: { $0.definition.name == definition.name }) { return written }
        precondition(index < catalogCommands.count, "ReportCatalog has more reports than Report.catalogCommands: add CatalogCommand<\(index)>")
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
