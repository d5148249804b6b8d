import Foundation
import Hummingbird
import HummingbirdTesting
import TallyQuery
import TallyRender
import TallySQLite
@testable import TallyServer
import Testing

@Suite struct ReadEndpointTests {
    private static let events = (0..<12).map {
        ServerFixture.reading("r\($0)", user: $0 % 3 == 0 ? "a" : "b", material: "m\($0 % 4)", ts: ServerFixture.ms(days: -$0 % 5), delta: 15 * ($0 + 1))
    }.joined(separator: "\n")

    @Test func everyReportIsTheRenderersJSONForTheSameQuestion() async throws {
        let fixture = try ServerFixture()
        let now = "2026-11-20T12:00:00Z"
        let cases: [(String, ReportQuestion, String?)] = [
            ("/learning/summary?user=a&now=\(now)", .summary, "a"),
            ("/learning/trend?days=9&now=\(now)&tz=%2B08:00", .trend(days: 9), nil),
            ("/activity/heatmap?days=30&user=b&now=\(now)", .heatmap(days: 30), "b"),
            ("/learning/continue?user=b&now=\(now)", .continueLearning, "b"),
            ("/materials/m1/reading-progress?now=\(now)", .progress(materialId: "m1"), nil),
            ("/feed/dislike-rate?by=model&now=\(now)", .dislikeRate(DislikeGrouping(byModel: true, byPosition: false), topReasons: 0, filter: FeedFilter()), nil),
            ("/feed/exposures?by=day&now=\(now)", .exposures(by: .day, filter: FeedFilter()), nil),
            ("/observability/latency?event=view_loaded&field=ms&now=\(now)", .latency(event: "view_loaded", field: "ms", by: "appVersion"), nil),
            ("/learning/retention?days=30&now=\(now)", .catalog(name: "retention", arguments: ReportCatalog.retention.defaultArguments), nil),
        ] + (try ReportCatalog.all.filter { $0.rows != nil }.compactMap { definition -> (String, ReportQuestion, String?)? in
            // Every report of the generic path, at its parameters' defaults.
            guard let endpoint = definition.endpoint else { return nil }
            return ("\(endpoint.path)?now=\(now)", try definition.question(definition.defaultArguments), nil)
        })
        try await fixture.test { client in
            #expect(try await client.post("/events", Self.events).status == .ok)
            let reports = SQLiteReports(store: try EventStore(readingAt: fixture.storePath))
            for (uri, question, user) in cases {
                let response = try await client.get(uri)
                #expect(response.status == .ok, "\(uri): \(response.text)")
                let tz = uri.contains("tz=") ? 480 : nil
                let expected = try reports.answer(question, context: ReportContext(user: user, nowMs: ServerFixture.ms(), timezoneOffsetMinutes: tz),
                                                  renderer: Renderer(color: false), format: .json)
                #expect(response.text == expected, "\(uri)")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.cacheControl] == "private, no-cache")
            }
        }
    }

    @Test func badParametersAre400WithTheJSONErrorShape() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            for uri in ["/learning/trend?days=0", "/learning/trend?days=3661", "/learning/trend?days=seven", "/activity/heatmap?days=-1",
                        "/learning/summary?tz=25:00", "/learning/summary?now=yesterday", "/feed/exposures?by=colour",
                        "/feed/dislike-rate?by=model,colour", "/feed/dislike-rate?positionBuckets=9-1", "/learning/summary?dayz=7",
                        "/learning/summary?user=a%0Ab", "/learning/summary?user=a&user=b", "/observability/latency?field=x",
                        "/learning/summary?user=%zz"] {
                let response = try await client.get(uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try response.errorCode() == "INVALID_PARAMETER", "\(uri): \(response.text)")
                let error = try response.json()["error"] as? [String: Any]
                #expect((error?["message"] as? String)?.isEmpty == false)
            }
            let missing = try await client.get("/learning/nothing")
            #expect(missing.status == .notFound)
            #expect(try missing.errorCode() == "NOT_FOUND")
        }
    }

    @Test func theETagChangesWithTheStoreAndIfNoneMatchAnswers304() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let uri = "/learning/summary?user=u&now=2026-11-20T12:00:00Z"
            let first = try await client.get(uri)
            let tag = try #require(first.headers[.eTag])
            let same = try await client.get(uri, headers: [.ifNoneMatch: tag])
            #expect(same.status == .notModified)
            #expect(same.body.readableBytes == 0)
            #expect(try await client.get(uri, headers: [.ifNoneMatch: "\"other\", \(tag)"]).status == .notModified)

            #expect(try await client.post("/events", ServerFixture.reading("n1", ts: ServerFixture.ms(), delta: 30)).status == .ok)
            let changed = try await client.get(uri, headers: [.ifNoneMatch: tag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != tag)
            #expect(try changed.json()["totalActiveSeconds"] as? Int == 30)
        }
    }

    @Test func withoutNowTheAnswerFollowsTheInjectedClock() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            #expect(try await client.post("/events", ServerFixture.reading("n1", ts: ServerFixture.ms(), delta: 30)).status == .ok)
            let today = try await client.get("/learning/summary?user=u")
            #expect(try today.json()["todayActiveSeconds"] as? Int == 30)
            fixture.clock.withLockedValue { $0 = ServerFixture.ms(days: 1) }
            let tomorrow = try await client.get("/learning/summary?user=u", headers: [.ifNoneMatch: today.headers[.eTag] ?? ""])
            #expect(tomorrow.status == .ok)
            #expect(try tomorrow.json()["todayActiveSeconds"] as? Int == 0)
        }
    }

    @Test func healthzCountsTheStore() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            #expect(try await client.post("/events", Self.events).status == .ok)
            let health = try await client.get("/healthz")
            #expect(health.status == .ok)
            #expect((try health.json()["events"] as? [String: Any])?["reading"] as? Int == 12)
        }
    }

    @Test func theDocumentsAreServedWithTags() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            let page = try await client.get("/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let document = try await client.get("/openapi.json")
            #expect(try document.json()["openapi"] as? String == "3.1.0")
            #expect(try await client.get("/openapi.json", headers: [.ifNoneMatch: document.headers[.eTag] ?? ""]).status == .notModified)
        }
    }

    @Test func adHocSQLIsOffUnlessAllowedAndThenReadOnly() async throws {
        try await ServerFixture().test { client in
            let refused = try await client.get("/sql?q=SELECT+1")
            #expect(refused.status == .forbidden)
            #expect(try refused.errorCode() == "SQL_DISABLED")
        }
        try await ServerFixture(allowSQL: true).test { client in
            let answer = try await client.get("/sql?q=SELECT+1+AS+one")
            #expect(answer.status == .ok)
            let rows = try answer.json()["rows"] as? [[String: Any]]
            #expect(rows?.first?["one"] as? Int == 1)
            let write = try await client.get("/sql?q=DELETE+FROM+reading_events")
            #expect(write.status == .badRequest)
            #expect(try write.errorCode() == "INVALID_SQL")
        }
    }
}
