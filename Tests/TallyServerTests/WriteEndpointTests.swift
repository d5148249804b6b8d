import Foundation
import Hummingbird
import HummingbirdTesting
import TallySupport
import Testing
@testable import TallyServer

@Suite struct WriteEndpointTests {
    @Test func aBatchIsAnsweredPerEvent() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let body = #"{"events": ["# + [ServerFixture.reading("e1", ts: ServerFixture.ms(), delta: 10),
                                            #"{"eventId":"e2","materialId":"m","eventType":"heartbeat","clientTimestampMs":1,"activeSecondsDelta":9999}"#,
                                            ServerFixture.reading("e1", ts: ServerFixture.ms(), delta: 10)].joined(separator: ",\n") + "]}"
            let first = try await client.post("/learning/reading-events/batch", body)
            #expect(first.status == .ok)
            let answer = try first.json()
            #expect(answer["accepted"] as? Int == 1)
            #expect(answer["duplicates"] as? [String] == ["e1"])
            let rejected = try #require((answer["rejected"] as? [[String: Any]])?.first)
            #expect(rejected["eventId"] as? String == "e2")
            #expect(rejected["line"] as? Int == 2)
            #expect(rejected["index"] as? Int == 1)
            #expect(rejected["code"] as? String == "INVALID_ACTIVE_SECONDS")
            #expect((rejected["message"] as? String)?.isEmpty == false)

            let again = try await client.post("/learning/reading-events/batch", body).json()
            #expect(again["accepted"] as? Int == 0)
            #expect(again["duplicates"] as? [String] == ["e1", "e1"])
        }
    }

    @Test func aDamagedBatchAccountsForEveryEventAfterTheDamage() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let events = (0..<100).map { $0 == 50 ? #"{"eventId":"r50"# : ServerFixture.reading("r\($0)", ts: 1) }
            let answer = try await client.post("/events", "[" + events.joined(separator: ",") + "]").json()
            #expect(answer["accepted"] as? Int == 99)
            let rejected = try #require(answer["rejected"] as? [[String: Any]])
            #expect(rejected.count == 1)
            #expect(rejected.first?["index"] as? Int == 50)
            #expect(rejected.first?["code"] as? String == "INVALID_JSON")

            let stray = "[" + ServerFixture.reading("s1", ts: 1) + "], " + ServerFixture.reading("s2", ts: 1) + "]"
            let strayAnswer = try await client.post("/events", stray).json()
            #expect(strayAnswer["accepted"] as? Int == 2)
            #expect((strayAnswer["rejected"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test func aDamagedBatchTooLongToSearchAgainIsRefusedWhole() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let valid = (1...100).map { ServerFixture.reading("d\($0)", ts: 1) }
            let body = "[" + ServerFixture.reading("d0", ts: 1) + ",\n" + String(repeating: #"{"a":1,"#, count: 50_000)
                + "\n" + valid.joined(separator: ",") + "]"
            let answer = try await client.post("/events", body)
            #expect(answer.status == .badRequest, "the uploader keeps a body whose events were not all read")
            #expect(try await client.post("/events", "[" + ServerFixture.reading("d0", ts: 1) + "]").json()["accepted"] as? Int == 1,
                    "nothing of the refused body was stored")
        }
    }

    @Test func eachEndpointTakesItsShape() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let feedback = "[" + ServerFixture.feedback("f1", impression: "i1", type: "dislike") + "]"
            #expect(try await client.post("/v1/feedback/batch", feedback).json()["accepted"] as? Int == 1)
            #expect(try await client.post("/learning/reading-events/batch", feedback).status == .badRequest)
            let object = #"{"events": [\#(ServerFixture.reading("r1", ts: 1))]}"#
            #expect(try await client.post("/v1/feedback/batch", object).status == .badRequest)
            #expect(try await client.post("/events", object).json()["accepted"] as? Int == 1)
            let lines = ServerFixture.reading("r2", ts: 1) + "\n" + ServerFixture.feedback("f2", impression: "i2", type: "like") + "\n"
            #expect(try await client.post("/events", lines).json()["accepted"] as? Int == 2)
            for body in ["", "  \n", "hello", "<xml/>"] {
                let response = try await client.post("/events", body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(try response.errorCode() == "INVALID_BODY")
            }
            let health = try await client.get("/healthz").json()["events"] as? [String: Any]
            #expect(health?["reading"] as? Int == 2)
            #expect(health?["feedback"] as? Int == 2)
        }
    }

    @Test func gzipBodiesAreInflatedAndTheLimitCountsInflatedBytes() async throws {
        let fixture = try ServerFixture(maxBodyBytes: 4096)
        try await fixture.test { client in
            let small = try Gzip.compress(Array(ServerFixture.reading("g1", ts: 1).utf8))
            let ok = try await client.post("/events", small, headers: [.contentEncoding: "gzip"])
            #expect(try ok.json()["accepted"] as? Int == 1)

            let lines = (0..<100).map { ServerFixture.reading("big\($0)", ts: 1) }.joined(separator: "\n")
            let big = try Gzip.compress(Array(lines.utf8))
            #expect(big.count < 4096)
            let tooLarge = try await client.post("/events", big, headers: [.contentEncoding: "gzip"])
            #expect(tooLarge.status == .contentTooLarge)
            #expect(try tooLarge.errorCode() == "BODY_TOO_LARGE")
            let plain = try await client.post("/events", lines)
            #expect(plain.status == .contentTooLarge)

            let notGzip = try await client.post("/events", ServerFixture.reading("g2", ts: 1), headers: [.contentEncoding: "gzip"])
            #expect(notGzip.status == .badRequest)
            let brotli = try await client.post("/events", ServerFixture.reading("g3", ts: 1), headers: [.contentEncoding: "br"])
            #expect(brotli.status == .unsupportedMediaType)
            let cut = try await client.post("/events", Array(small.dropLast(12)), headers: [.contentEncoding: "gzip"])
            #expect(cut.status == .badRequest)

            let health = try await client.get("/healthz").json()["events"] as? [String: Any]
            #expect(health?["reading"] as? Int == 1, "nothing of a refused body is stored")
        }
    }

    @Test func clickHouseInsertsStoreLikeEvents() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let rows = ServerFixture.reading("c1", ts: 1) + "\n" + #"{"eventId":"c2"}"# + "\n"
            let response = try await client.post("/?query=INSERT%20INTO%20app.events%20FORMAT%20JSONEachRow&enable_http_compression=1",
                                                  try Gzip.compress(Array(rows.utf8)), headers: [.contentEncoding: "gzip"])
            #expect(response.status == .ok)
            #expect(response.body.readableBytes == 0)
            let summary = response.headers.first { $0.name.canonicalName == "x-clickhouse-summary" }?.value
            #expect(summary?.contains("\"written_rows\":\"1\"") == true)
            let plus = try await client.post("/?query=insert+into+events+format+JSONEachRow", ServerFixture.reading("c3", ts: 1))
            #expect(plus.status == .ok)
            #expect(try await client.post("/?query=SELECT+1", "").status == .badRequest)
            #expect(try await client.post("/", "{}").status == .badRequest)
            let health = try await client.get("/healthz").json()
            #expect((health["events"] as? [String: Any])?["reading"] as? Int == 2)
            #expect(health["rejectedLines"] as? Int == 1)
        }
    }

    @Test func aTokenGuardsEverythingButHealthzAndThePage() async throws {
        let fixture = try ServerFixture(token: "s3cret")
        try await fixture.test { client in
            #expect(try await client.get("/healthz").status == .ok)
            let missing = try await client.get("/learning/summary")
            let wrong = try await client.get("/learning/summary", headers: [.authorization: "Bearer s3creT"])
            let basic = try await client.get("/learning/summary", headers: [.authorization: "Basic czNjcmV0"])
            for response in [missing, wrong, basic] {
                #expect(response.status == .unauthorized)
                #expect(response.text == missing.text, "every refusal looks the same")
                #expect(!response.text.contains("s3cret"))
            }
            #expect(try await client.post("/events", ServerFixture.reading("t1", ts: 1)).status == .unauthorized)
            #expect(try await client.get("/openapi.json", headers: [:]).status == .unauthorized)
            #expect(try await client.get("/", headers: [:]).status == .ok, "the page holds no data and asks for a token itself")
            let allowed = try await client.get("/learning/summary", headers: [.authorization: "Bearer s3cret"])
            #expect(allowed.status == .ok)
            let health = try await client.get("/healthz", headers: [.authorization: "Bearer s3cret"]).json()["events"] as? [String: Any]
            #expect(health?["reading"] as? Int == 0)
        }
    }

    @Test func corsAllowsTheConfiguredOriginsOnly() async throws {
        let fixture = try ServerFixture(token: "t", corsOrigins: ["http://dash.example"])
        try await fixture.test { client in
            let preflight = try await client.execute(uri: "/learning/summary", method: .options, headers: [
                .origin: "http://dash.example", .accessControlRequestMethod: "GET", .accessControlRequestHeaders: "authorization",
            ])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "http://dash.example")
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Authorization") == true)
            let answer = try await client.get("/learning/summary", headers: [.origin: "http://dash.example", .authorization: "Bearer t"])
            #expect(answer.headers[.accessControlAllowOrigin] == "http://dash.example")
            #expect(answer.headers[.accessControlExposeHeaders] == "ETag")
            let other = try await client.get("/learning/summary", headers: [.origin: "http://evil.example", .authorization: "Bearer t"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
        }
    }
}
