import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TallyServer

/// Who may do what: each token's scopes, `/healthz` telling only liveness to callers without a
/// read token, and an `OPTIONS` request that is not an allowed origin's preflight needing a token
/// like any other.
@Suite struct TokenScopeTests {
    @Test func healthzSaysOnlyOkWithoutAToken() async throws {
        let fixture = try ServerFixture(token: "s3cret")
        try await fixture.test { client in
            _ = try await client.post("/events", ServerFixture.reading("h1", ts: 1), headers: [.authorization: "Bearer s3cret"])
            let anonymous = try await client.get("/healthz")
            #expect(anonymous.status == .ok)
            #expect(anonymous.text == "{\"status\":\"ok\"}\n")
            let wrong = try await client.get("/healthz", headers: [.authorization: "Bearer nope"])
            #expect(wrong.status == .ok)
            #expect(wrong.text == anonymous.text)
            let counted = try await client.get("/healthz", headers: [.authorization: "Bearer s3cret"]).json()
            #expect((counted["events"] as? [String: Any])?["reading"] as? Int == 1)
        }
    }

    @Test func optionsNeedsATokenUnlessItIsAnAllowedPreflight() async throws {
        let fixture = try ServerFixture(token: "t", corsOrigins: ["http://dash.example"])
        try await fixture.test { client in
            let known = try await client.execute(uri: "/learning/summary", method: .options, headers: [:])
            let unknown = try await client.execute(uri: "/no/such/route", method: .options, headers: [:])
            #expect(known.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(known.text == unknown.text, "a probe learns nothing about which routes exist")
            let foreign = try await client.execute(uri: "/learning/summary", method: .options, headers: [
                .origin: "http://evil.example", .accessControlRequestMethod: "GET",
            ])
            #expect(foreign.status == .unauthorized)
            let preflight = try await client.execute(uri: "/learning/summary", method: .options, headers: [
                .origin: "http://dash.example", .accessControlRequestMethod: "GET",
            ])
            #expect(preflight.status == .noContent)
        }
    }

    @Test func eachScopeOpensItsOwnEndpointsOnly() async throws {
        let fixture = try ServerFixture(tokens: [AccessToken("r", scopes: [.read]), AccessToken("w", scopes: [.write]),
                                                 AccessToken("s", scopes: [.sql]), AccessToken("m", scopes: [.metrics]),
                                                 AccessToken("rw", scopes: [.read, .write])], allowSQL: true)
        try await fixture.test { client in
            func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
            let upload = ServerFixture.reading("s1", ts: 1)
            #expect(try await client.post("/events", upload, headers: bearer("w")).status == .ok)
            #expect(try await client.post("/events", upload, headers: bearer("rw")).status == .ok)
            #expect(try await client.get("/learning/summary", headers: bearer("r")).status == .ok)
            #expect(try await client.get("/learning/summary", headers: bearer("rw")).status == .ok)
            #expect(try await client.get("/sql?q=SELECT%201", headers: bearer("s")).status == .ok)
            #expect(try await client.get("/metrics", headers: bearer("m")).status == .ok)
            #expect(try await client.get("/openapi.json", headers: bearer("r")).status == .ok)
            #expect(try await client.get("/", headers: [:]).status == .ok, "the page holds no data and asks for a token itself")

            let refusals: [(String, HTTPRequest.Method, String)] = [
                ("/learning/summary", .get, "w"), ("/learning/users", .get, "s"), ("/events", .post, "r"),
                ("/", .post, "m"), ("/sql?q=SELECT%201", .get, "r"), ("/metrics", .get, "rw"), ("/no/such/route", .get, "w"),
            ]
            for (path, method, token) in refusals {
                let response = try await client.execute(uri: path, method: method, headers: bearer(token),
                                                        body: method == .post ? ByteBuffer(string: upload) : nil)
                #expect(response.status == .forbidden, "\(method) \(path) with \(token)")
                #expect(try response.errorCode() == "INSUFFICIENT_SCOPE")
                #expect(response.headers[.wwwAuthenticate]?.contains("insufficient_scope") == true)
            }
            let missing = try await client.get("/metrics")
            let unknown = try await client.get("/metrics", headers: bearer("nope"))
            #expect(missing.status == .unauthorized && unknown.status == .unauthorized)
            #expect(missing.text == unknown.text)
            #expect(try await client.get("/healthz", headers: bearer("w")).text == "{\"status\":\"ok\"}\n", "counts need read")
            #expect(try await client.get("/healthz", headers: bearer("rw")).json()["events"] != nil)
        }
    }

    @Test func aTokenListNamesTheLineAndFieldOfEachMistake() throws {
        let tokens = try AccessToken.parse("# who\nread,write  abc\n\nmetrics\tdef ; sql ghi\n", source: "tokens")
        #expect(tokens.map(\.scopes) == [[.read, .write], [.metrics], [.sql]])
        let cases: [(String, String)] = [
            ("read abc\nreed xyz", "tokens, line 2, scopes: unknown scope \"reed\"; the scopes are read, write, sql, metrics."),
            ("read", "tokens, line 1, token: expected SCOPES TOKEN, such as \"read,write <token>\"; the token is missing."),
            ("read a b", "tokens, line 1, token: expected SCOPES TOKEN; a token has no spaces."),
            ("read abc\n\nwrite abc", "tokens, line 3, token: the same token is listed on line 1 already."),
        ]
        for (text, message) in cases {
            #expect(throws: AccessToken.ListError.self) { try AccessToken.parse(text, source: "tokens") }
            do {
                _ = try AccessToken.parse(text, source: "tokens")
            } catch {
                #expect("\(error)" == message)
                #expect(!"\(error)".contains("abc") && !"\(error)".contains("xyz"), "tokens are never shown")
            }
        }
    }
}
