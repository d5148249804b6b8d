import Foundation
import TallyQuery
import TallyRender
@testable import TallyServer
import TallyTestSupport
import XCTest
@testable import report

/// Every report's parameters are read alike by `report NAME` and by the server: the same
/// defaults, the same limits refused with the same message, and the OpenAPI document states
/// exactly those defaults and limits.
final class ReportParameterParityTests: XCTestCase {
    private var files: EventFiles!

    override func setUpWithError() throws {
        files = try EventFiles()
    }

    override func tearDown() {
        files = nil
    }

    /// What a report needs besides its defaults: each required text parameter, and its path
    /// parameter; as CLI words, a query string and path values, and the arguments they give.
    private struct Required {
        var cli: [String] = []
        var query: [String] = []
        var path: [String: String] = [:]
        var arguments: ReportDefinition.Arguments

        init(_ definition: ReportDefinition, flag: (String) -> String) {
            arguments = definition.defaultArguments
            for parameter in definition.parameters {
                switch parameter.kind {
                case .text(true, _):
                    cli += [flag(parameter.name), "x"]
                    query.append("\(parameter.name)=x")
                    arguments[text: parameter.name] = "x"
                case .path:
                    cli.append("m-1")
                    path[parameter.name] = "m-1"
                    arguments[text: parameter.name] = "m-1"
                case .days, .integer, .choice, .text, .pattern: break
                }
            }
        }

        /// The URL of `endpoint` with the path values, the required parameters and `extra`.
        func url(_ endpoint: ReportDefinition.Endpoint, _ extra: [String] = []) -> String {
            var url = endpoint.path
            for (name, value) in path { url = url.replacingOccurrences(of: "{\(name)}", with: value) }
            return url + "?" + (["now=2026-11-20T12:00:00Z"] + query + extra).joined(separator: "&")
        }
    }

    /// The OpenAPI schemas of the parameters of each path, from the served document.
    private func documentedSchemas(_ server: ServeProcess) async throws -> [String: [String: [String: Any]]] {
        let (status, body) = try await server.request("/openapi.json")
        XCTAssertEqual(status, 200)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        var schemas: [String: [String: [String: Any]]] = [:]
        for (path, item) in try XCTUnwrap(document["paths"] as? [String: Any]) {
            let parameters = ((item as? [String: Any])?["get"] as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
            for parameter in parameters {
                guard let name = parameter["name"] as? String else { continue }
                schemas[path, default: [:]][name] = parameter["schema"] as? [String: Any]
            }
        }
        return schemas
    }

    /// The message of a 400 answer.
    private func refusal(_ server: ServeProcess, _ url: String) async throws -> String? {
        let (status, body) = try await server.request(url)
        XCTAssertEqual(status, 400, url)
        let error = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? [String: Any]
        return error?["message"] as? String
    }

    func testEverySubcommandWithNoFlagsAsksWhatTheServerAsksWithNoParameters() throws {
        XCTAssertEqual(Report.reportCommands.map { $0.definition.name }, ReportCatalog.all.map(\.name), "one subcommand per report, in order")
        for command in Report.reportCommands {
            let definition = command.definition
            let required = Required(definition) { command.flag($0) }
            let parsed = try XCTUnwrap(try command.parseAsRoot(required.cli) as? any ReportCommand, definition.name)
            XCTAssertEqual(Set(parsed.values.keys), Set(definition.parameters.map(\.name)), "\(definition.name): a flag per parameter")
            XCTAssertEqual(try parsed.arguments(), required.arguments, definition.name)
            guard definition.endpoint != nil else { continue }
            let served = try ReadRequest.arguments(of: definition, query: try QueryParameters(required.query.joined(separator: "&")),
                                                   path: required.path)
            XCTAssertEqual(served, required.arguments, definition.name)
        }
    }

    func testJustOutsideEveryLimitTheCLIAndTheServerRefuseAlikeAndTheDocumentSaysSo() async throws {
        let server = try ServeProcess(["--db", files.path("s.sqlite")])
        let documented = try await documentedSchemas(server)
        for command in Report.reportCommands {
            let definition = command.definition
            let required = Required(definition) { command.flag($0) }
            for parameter in definition.parameters {
                let schema = definition.endpoint.map { documented[$0.path]?[parameter.name] ?? [:] }
                let outside: [String]
                switch parameter.kind {
                case .days(let value), .integer(_, let value):
                    let range = try XCTUnwrap(parameter.range)
                    outside = [String(range.lowerBound - 1)] + (range.upperBound < .max ? [String(range.upperBound + 1)] : [])
                    if let schema {
                        XCTAssertEqual(schema["minimum"] as? Int, range.lowerBound, "\(definition.name) \(parameter.name)")
                        XCTAssertEqual(schema["maximum"] as? Int, range.upperBound, "\(definition.name) \(parameter.name)")
                        XCTAssertEqual(schema["default"] as? Int, value, "\(definition.name) \(parameter.name)")
                    }
                case .choice(let values, let value, _):
                    outside = [values[0] + "x"]
                    if let schema {
                        XCTAssertEqual(schema["enum"] as? [String], values, "\(definition.name) \(parameter.name)")
                        XCTAssertEqual(schema["default"] as? String, value, "\(definition.name) \(parameter.name)")
                    }
                case .pattern(let pattern, _):
                    outside = ["x", "9-1"]
                    if let schema {
                        XCTAssertEqual(schema["pattern"] as? String, pattern, "\(definition.name) \(parameter.name)")
                    }
                case .text, .path:
                    continue
                }
                for value in outside {
                    let flag = command.flag(parameter.name)
                    var cliMessage = ""
                    XCTAssertThrowsError(try command.parseAsRoot(required.cli + ["\(flag)=\(value)"]), "\(flag)=\(value)") {
                        cliMessage = command.message(for: $0)
                    }
                    guard let endpoint = definition.endpoint else { continue }
                    let serverMessage = try await refusal(server, required.url(endpoint, ["\(parameter.name)=\(value)"]))
                    XCTAssertEqual(cliMessage, "\(flag): \(serverMessage ?? "")", "\(definition.name) \(parameter.name)=\(value)")
                }
            }
        }
    }

    func testTheDocumentedPositionBucketsAreTakenByTheDocumentTheCLIAndTheServer() async throws {
        let server = try ServeProcess(["--db", files.path("s.sqlite")])
        let documented = try await documentedSchemas(server)
        let pattern = try NSRegularExpression(pattern: try XCTUnwrap(documented["/feed/dislike-rate"]?["positionBuckets"]?["pattern"] as? String))
        for buckets in ["0-4,5-9,10-", "0-", "3-3", " 0 - 4 ,, 5-", "+1-2,", ",0-9,10-19"] {
            let whole = NSRange(buckets.startIndex..., in: buckets)
            XCTAssertEqual(pattern.firstMatch(in: buckets, range: whole)?.range, whole, "the OpenAPI pattern refuses \"\(buckets)\"")
            XCTAssertNoThrow(try DislikeRateCommand.parseAsRoot(["--position-buckets", buckets]), buckets)
            let query = try XCTUnwrap(buckets.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let (status, body) = try await server.request("/feed/dislike-rate?positionBuckets=\(query)")
            XCTAssertEqual(status, 200, "\(buckets): \(String(decoding: body, as: UTF8.self))")
        }
    }
}
