import Foundation
import Hummingbird
import HummingbirdTesting
import TallyQuery
import TallyRender
@testable import TallyServer
import Testing

/// Every report of `ReportCatalog` is served, takes only GET (405 otherwise), and is in the
/// OpenAPI document, which is the one generated from the catalog.
@Suite struct ReportCatalogTests {
    /// A path of `template` with its `{name}` segments filled in.
    private static func concrete(_ template: String) -> String {
        template.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("{") ? "m-01" : String($0) }.joined(separator: "/")
    }

    @Test func everyEndpointIsRoutedWithItsMethodsAndDocumented() async throws {
        let fixture = try ServerFixture()
        let base = String(decoding: try StaticDocument.resource("openapi-base", ext: "json"), as: UTF8.self)
        let generated = OpenAPIDocument.text(base: base)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(generated.utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        for definition in ReportCatalog.all {
            guard let endpoint = definition.endpoint else { continue }
            let operation = (paths[endpoint.path] as? [String: Any])?["get"] as? [String: Any]
            #expect(operation?["operationId"] as? String == endpoint.operationId, "\(endpoint.path) is not in the OpenAPI document")
            let documented = Set(((operation?["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
            #expect(documented == Set(["user", "now", "tz", "format"] + definition.parameters.map(\.name)), "\(endpoint.path)")
        }
        #expect(ReportCatalog.all.filter { $0.endpoint == nil }.map(\.name) == ["top"], "every report but top has an endpoint")
        #expect(ReportCatalog.all.compactMap(\.endpoint).count >= 9)
        try await fixture.test { client in
            let served = try await client.get("/openapi.json")
            #expect(served.status == .ok)
            #expect(served.text == generated)
            for definition in ReportCatalog.all {
                guard let endpoint = definition.endpoint else { continue }
                let path = Self.concrete(endpoint.path)
                #expect(RouteMethods.api.allow(path) == "GET", "\(endpoint.path)")
                let required = definition.parameters.filter { if case .text(true, _) = $0.kind { true } else { false } }
                let query = (["now=2026-11-20T12:00:00Z"] + required.map { "\($0.name)=x" }).joined(separator: "&")
                let answer = try await client.get(path + "?" + query)
                // An endpoint that documents a 404 gives it for a value naming nothing in the store (baseline=x).
                #expect(answer.status == (endpoint.notFound == nil ? .ok : .notFound), "\(path): \(answer.text)")
                let refused = try await client.execute(uri: path, method: .delete)
                #expect(refused.status == .methodNotAllowed, "\(path)")
                #expect(refused.headers[.allow] == "GET", "\(path)")
            }
        }
    }

    @Test func theGeneratedDocumentListsTheReportsBeforeTheOtherEndpoints() throws {
        let base = String(decoding: try StaticDocument.resource("openapi-base", ext: "json"), as: UTF8.self)
        let text = OpenAPIDocument.text(base: base)
        let summary = try #require(text.range(of: "\"/learning/summary\": {"))
        let health = try #require(text.range(of: "\"/healthz\": {"))
        #expect(summary.lowerBound < health.lowerBound)
        #expect(!base.contains("\"/learning/summary\""))
    }
}
