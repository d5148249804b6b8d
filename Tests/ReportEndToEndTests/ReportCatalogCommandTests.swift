import TallyRender
import TallyTestSupport
import XCTest

/// Every report of `ReportCatalog` is a subcommand of `report`, listed by `report --help`, with
/// the definition's abstract as its overview.
final class ReportCatalogCommandTests: XCTestCase {
    func testEveryRegisteredReportIsASubcommand() throws {
        let help = try ReportBinary.run(["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        for definition in ReportCatalog.all {
            XCTAssertTrue(help.stdout.contains("  \(definition.name) "), "report --help does not list \(definition.name)")
            let own = try ReportBinary.run([definition.name, "--help"])
            XCTAssertEqual(own.status, 0, "report \(definition.name) --help: \(own.stderr)")
            let overview = own.stdout.components(separatedBy: "\n\n")[0].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertEqual(overview, "OVERVIEW: \(definition.abstract)")
        }
    }
}
