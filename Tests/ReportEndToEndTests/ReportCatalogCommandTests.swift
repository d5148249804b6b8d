import Foundation
import TallyQuery
import TallyRender
import TallyTestSupport
import XCTest

/// Every report of `ReportCatalog` is a subcommand of `report`, listed by `report --help` with
/// the definition's abstract and its parameters as flags; and, when it has an endpoint, a route
/// of `report serve` that answers, and a path of the served OpenAPI document with its parameters.
final class ReportCatalogCommandTests: XCTestCase {
    private var files: EventFiles!

    override func setUpWithError() throws {
        files = try EventFiles()
    }

    override func tearDown() {
        files = nil
    }

    func testEveryReportIsASubcommandARouteThatAnswersAndADocumentedPath() async throws {
        let help = try ReportBinary.run(["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        let server = try ServeProcess(["--db", files.path("s.sqlite")])
        let (status, body) = try await server.request("/openapi.json")
        XCTAssertEqual(status, 200)
        let paths = try XCTUnwrap((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["paths"] as? [String: Any])
        for definition in ReportCatalog.all {
            XCTAssertTrue(help.stdout.contains("  \(definition.name) "), "report --help does not list \(definition.name)")
            let own = try ReportBinary.run([definition.name, "--help"])
            XCTAssertEqual(own.status, 0, "report \(definition.name) --help: \(own.stderr)")
            let overview = own.stdout.components(separatedBy: "\n\n")[0].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            XCTAssertEqual(overview, "OVERVIEW: \(definition.abstract)")

            guard let endpoint = definition.endpoint else { continue }
            let operation = (paths[endpoint.path] as? [String: Any])?["get"] as? [String: Any]
            XCTAssertEqual(operation?["operationId"] as? String, endpoint.operationId, "\(endpoint.path) is not documented")
            let documented = ((operation?["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            XCTAssertEqual(documented, ["user", "now", "tz"] + definition.parameters.map(\.name) + ["format"], endpoint.path)
            var url = endpoint.path
            var query = ["now=2026-11-20T12:00:00Z"]
            for parameter in definition.parameters {
                switch parameter.kind {
                case .path: url = url.replacingOccurrences(of: "{\(parameter.name)}", with: "m-1")
                case .text(true, _): query.append("\(parameter.name)=x")
                case .days, .integer, .choice, .text, .pattern: break
                }
            }
            let (answered, text) = try await server.request(url + "?" + query.joined(separator: "&"))
            // An endpoint that documents a 404 gives it for a value naming nothing in the store (baseline=x).
            XCTAssertEqual(answered, endpoint.notFound == nil ? 200 : 404, "\(url): \(String(decoding: text, as: UTF8.self))")
        }
    }

    /// Each flag's help is the definition's: its line, a `days` range, its default.
    func testEveryFlagShowsItsDefinitionsHelpAndDefault() throws {
        for definition in ReportCatalog.all {
            let help = try ReportBinary.run([definition.name, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for parameter in definition.parameters {
                let line = parameter.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                switch parameter.kind {
                case .days(let value):
                    XCTAssertTrue(help.contains("--\(parameter.name) <\(parameter.name)> \(line.dropLast()), 1...3660. (default: \(value))"),
                                  "\(definition.name): \(help)")
                case .integer(_, let value):
                    XCTAssertTrue(help.contains("\(line) (default: \(value))"), "\(definition.name): \(help)")
                case .choice(_, let value, _), .text(_, .some(let value)):
                    XCTAssertTrue(help.contains("\(line) (default: \(value))"), "\(definition.name): \(help)")
                case .text(_, .none), .pattern, .path:
                    XCTAssertTrue(help.contains(line), "\(definition.name): \(help)")
                }
            }
        }
    }
}
