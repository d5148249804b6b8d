import ArgumentParser
import Foundation
import TallyClickHouse
import TallyQuery
import TallySQLite

/// `report query queries/NAME.sql --param name=value`: run a saved query, read-only.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query", abstract: "Run a saved SQL query (a file, or the name of one in queries/), read-only.",
        discussion: """
            Parameters are named in the SQL as :name; one not given is NULL, which the saved queries read as "all". \
            With --backend clickhouse a saved query (NAME, or a path queries/NAME.sql) runs its ClickHouse twin, \
            queries/clickhouse/NAME.sql.
            """)

    @Argument(help: "A .sql file, or the name of a saved query such as learning_days.")
    var query: String

    @Option(name: .customLong("param"), help: ArgumentHelp("A parameter, name=value (repeatable).", valueName: "name=value"))
    var parameters: [QueryParameter] = []

    @OptionGroup var options: ReportOptions

    @OptionGroup var timeout: SQLTimeoutOption

    func run() throws {
        let reports = try options.reports()
        let sql: String
        if options.storage.backend == .clickhouse, let name = Self.savedName(query) {
            sql = try reports.savedQuery(name)
        } else if FileManager.default.fileExists(atPath: query) {
            do {
                sql = try String(contentsOfFile: query, encoding: .utf8)
            } catch {
                throw ValidationError("Cannot read \(query): \(error.localizedDescription)")
            }
        } else {
            let name = (query as NSString).lastPathComponent.replacingOccurrences(of: ".sql", with: "")
            sql = try reports.savedQuery(name)
        }
        let report = try reports.adHoc(sql, parameters: QueryParameter.dictionary(parameters), interrupter: timeout.interrupter())
        Terminal.write(options.renderer().render(report, as: options.format))
    }

    /// The saved query `argument` names, as NAME or as a path `…/queries/NAME.sql`; nil for any
    /// other file.
    static func savedName(_ argument: String) -> String? {
        let path = argument as NSString
        let name = (path.lastPathComponent as NSString).deletingPathExtension
        let isSavedPath = path.pathExtension == "sql" && (path.deletingLastPathComponent as NSString).lastPathComponent == "queries"
        guard isSavedPath || !argument.contains("/") && !argument.hasSuffix(".sql") else { return nil }
        return QueryLibrary.names.contains(name) || ClickHouseQueries.names.contains(name) ? name : nil
    }
}
