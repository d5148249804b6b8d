import TallyQuery
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

    /// A report of the generic path has no subcommand written for it: its flags are its
    /// definition's parameters, with their defaults, and their ranges are checked.
    func testTheGenericSubcommandTakesTheDefinitionsParameters() throws {
        let generic = ReportCatalog.all.filter { $0.rows != nil }
        XCTAssertFalse(generic.isEmpty)
        for definition in generic {
            let help = try ReportBinary.run([definition.name, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for parameter in definition.parameters {
                switch parameter.kind {
                case .days(let value), .integer(_, let value):
                    XCTAssertTrue(help.contains("--\(parameter.name) <\(parameter.name)>"), "\(definition.name): \(help)")
                    XCTAssertTrue(help.contains("(default: \(value))"), "\(definition.name): \(help)")
                default:
                    XCTAssertTrue(help.contains(parameter.name), "\(definition.name): \(help)")
                }
                if case .days = parameter.kind {
                    let refused = try ReportBinary.run([definition.name, "--\(parameter.name)", "0"])
                    XCTAssertEqual(refused.status, 64)
                    XCTAssertTrue(refused.stderr.contains("--\(parameter.name): days must be 1...3660, got 0."), refused.stderr)
                }
            }
        }
    }
}
