import ArgumentParser

/// `report sql "SELECT …"`: ad hoc SQL over the store, read-only.
struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql", abstract: "Run ad hoc SQL over the store, read-only (docs/schema.md lists the tables).")

    @Argument(help: "One SQL statement.")
    var sql: String

    @Option(name: .customLong("param"), help: ArgumentHelp("A parameter, name=value (repeatable).", valueName: "name=value"))
    var parameters: [QueryParameter] = []

    @OptionGroup var options: ReportOptions

    @OptionGroup var timeout: SQLTimeoutOption

    func run() throws {
        let report = try options.reports().adHoc(sql, parameters: QueryParameter.dictionary(parameters), interrupter: timeout.interrupter())
        Terminal.write(options.renderer().render(report, as: options.format))
    }
}
