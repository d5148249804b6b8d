import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TallyServer

/// `/metrics` in Prometheus' text format, and every report also as the CLI's CSV.
@Suite struct MetricsAndCSVTests {
    @Test func metricsCountRequestsEventsAndStatements() async throws {
        let fixture = try ServerFixture(allowSQL: true)
        try await fixture.test { client in
            _ = try await client.get("/learning/summary")
            _ = try await client.get("/materials/m%201/reading-progress")
            _ = try await client.get("/nothing/here")
            _ = try await client.post("/events", ServerFixture.reading("a", ts: 1) + "\n" + ServerFixture.reading("a", ts: 1) + "\n{}")
            _ = try await client.get("/sql?q=ATTACH%20'x'%20AS%20x")
            let metrics = try await client.get("/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let lines = Set(metrics.text.split(separator: "\n").map(String.init))
            for expected in [
                "# TYPE tally_http_requests_total counter",
                "tally_http_requests_total{route=\"/learning/summary\",method=\"GET\",status=\"200\"} 1",
                "tally_http_requests_total{route=\"/materials/{materialId}/reading-progress\",method=\"GET\",status=\"200\"} 1",
                "tally_http_requests_total{route=\"other\",method=\"GET\",status=\"404\"} 1",
                "# TYPE tally_http_request_duration_seconds histogram",
                "tally_http_request_duration_seconds_bucket{route=\"/learning/summary\",le=\"+Inf\"} 1",
                "tally_http_request_duration_seconds_count{route=\"/learning/summary\"} 1",
                "tally_events_total{family=\"reading\",outcome=\"accepted\"} 1",
                "tally_events_total{family=\"reading\",outcome=\"duplicate\"} 1",
                "tally_events_total{family=\"unknown\",outcome=\"rejected\"} 1",
                "tally_sql_statements_stopped_total{limit=\"read-only\"} 1",
                "tally_sql_statements_stopped_total{limit=\"sql-timeout\"} 0",
                "tally_connections_evicted_total 0",
            ] {
                #expect(lines.contains(expected), "\(expected)")
            }
            #expect(lines.contains { $0.hasPrefix("tally_store_size_bytes ") && $0 != "tally_store_size_bytes 0" })
        }
    }

    @Test func reportsAnswerTheCLIsCSVWhenAsked() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            _ = try await client.post("/events", ServerFixture.reading("c1", ts: ServerFixture.ms(), delta: 30))
            let json = try await client.get("/learning/trend?days=2&now=2026-11-20T12:00:00Z")
            let csv = try await client.get("/learning/trend?days=2&now=2026-11-20T12:00:00Z&format=csv")
            let accepted = try await client.get("/learning/trend?days=2&now=2026-11-20T12:00:00Z", headers: [.accept: "text/csv, application/json;q=0.5"])
            #expect(json.headers[.contentType] == "application/json; charset=utf-8")
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(csv.text.hasPrefix("date,activeSeconds,materials"), "the CLI's columns (ServeEndToEndTests compares the bytes)")
            #expect(accepted.text == csv.text)
            #expect(csv.headers[.eTag] != json.headers[.eTag], "each representation has its own tag")
            #expect(csv.headers[.vary] == "Accept")
            let preferJSON = try await client.get("/learning/trend?days=2&now=2026-11-20T12:00:00Z", headers: [.accept: "application/json, text/csv"])
            #expect(preferJSON.text == json.text)
            let explicit = try await client.get("/learning/trend?days=2&now=2026-11-20T12:00:00Z&format=json", headers: [.accept: "text/csv"])
            #expect(explicit.text == json.text)
            let bad = try await client.get("/learning/trend?format=table")
            #expect(bad.status == .badRequest)
            #expect(try bad.errorCode() == "INVALID_PARAMETER")
        }
    }
}
