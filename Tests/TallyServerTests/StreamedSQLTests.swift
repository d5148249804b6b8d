import Foundation
import HummingbirdTesting
import Testing
import TallySupport
import TallyServer

/// `/sql` answers stream: rows go out a piece at a time as they are read, the server holds a
/// bounded number of pieces whatever the result's size, a limit passed after the answer began
/// ends its rows with `"truncated": true`, and a client that leaves frees its thread at once.
@Suite struct StreamedSQLTests {
    /// `count` rows of a `width`-character text each.
    private static func rows(_ count: Int, width: Int = 100) -> String {
        "WITH+RECURSIVE+c(i)+AS+(SELECT+1+UNION+ALL+SELECT+i%2B1+FROM+c+WHERE+i<\(count))+SELECT+i,+printf('%25\(width)d',+i)+AS+t+FROM+c"
    }

    /// The value of the `/metrics` sample named `name` (no labels).
    private static func sample(_ name: String, in metrics: String) -> Int? {
        metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    /// An answer of about 13 MB is answered whole while the server never holds more than its
    /// few pieces of it: `/metrics` reports the most bytes held at once.
    @Test func aLargeResultIsAnsweredWhileTheServerHoldsFewPieces() async throws {
        let fixture = try ServerFixture(allowSQL: true, sqlLimits: .none)
        try await fixture.test { client in
            let response = try await client.get("/sql?q=\(Self.rows(100_000))")
            #expect(response.status == .ok)
            #expect(response.body.readableBytes > 10_000_000)
            let rows = try response.json()["rows"] as? [[String: Any]]
            #expect(rows?.count == 100_000)
            #expect(rows?.last?["i"] as? Int == 100_000)
            #expect(try response.json()["truncated"] == nil, "a whole answer is what report sql --format json prints")
            let metrics = try await client.get("/metrics").text
            let most = try #require(Self.sample("tally_sql_answer_bytes_held_max", in: metrics))
            #expect(most > 0)
            #expect(most <= 1 << 20, "held \(most) bytes of a \(response.body.readableBytes)-byte answer at once")
            #expect(Self.sample("tally_sql_answer_bytes_held", in: metrics) == 0, "nothing is held once the answer is sent")
        }
    }

    /// A limit passed after the first piece went out ends the rows there: the answer is still
    /// JSON, with `"truncated": true` and the error that stopped it; one passed before answers
    /// 400 as before.
    @Test func aLimitPassedAfterTheAnswerBeganTruncatesIt() async throws {
        let fixture = try ServerFixture(allowSQL: true, sqlLimits: AdHocLimits(maxBytes: 1 << 20, maxRows: 5000))
        try await fixture.test { client in
            let rows = try await client.get("/sql?q=WITH+RECURSIVE+c(i)+AS+(SELECT+1+UNION+ALL+SELECT+i%2B1+FROM+c+WHERE+i<20000)+SELECT+i+FROM+c")
            #expect(rows.status == .ok)
            let json = try rows.json()
            #expect((json["rows"] as? [[String: Any]])?.count == 5000)
            #expect(json["truncated"] as? Bool == true)
            let error = json["error"] as? [String: Any]
            #expect(error?["code"] as? String == "SQL_TOO_LARGE")
            #expect((error?["message"] as? String)?.contains("(--sql-max-rows)") == true, "\(error ?? [:])")

            let bytes = try await client.get("/sql?q=\(Self.rows(4000, width: 400))")
            #expect(bytes.status == .ok)
            let stopped = try bytes.json()
            #expect(((stopped["rows"] as? [[String: Any]])?.count ?? 0) < 4000)
            #expect(stopped["truncated"] as? Bool == true)
            #expect(((stopped["error"] as? [String: Any])?["message"] as? String)?.contains("(--sql-max-bytes)") == true)

            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains("tally_sql_statements_stopped_total{limit=\"sql-too-large\"} 2\n"))
        }
    }

    /// A client that leaves in the middle of an endless answer stops its statement and frees the
    /// one `/sql` thread: the next statement is answered 200, not 503.
    @Test func aClientThatLeavesMidAnswerFreesTheThread() async throws {
        let fixture = try ServerFixture(allowSQL: true, sqlTimeout: .seconds(120), sqlLimits: .none, sqlThreads: 1)
        try await fixture.testLive { client in
            let port = try #require(client.port)
            let endless = "WITH+RECURSIVE+c(x)+AS+(SELECT+1+UNION+ALL+SELECT+x%2B1+FROM+c)+SELECT+x+FROM+c"
            var leaving: RawHTTPConnection? = try RawHTTPConnection(port: port, sending: "GET /sql?q=\(endless) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let start = String(decoding: leaving?.read(atLeast: 100_000) ?? [], as: UTF8.self)
            #expect(start.hasPrefix("HTTP/1.1 200"), "\(start.prefix(200))")
            #expect(start.contains("\"rows\": ["))
            let busy = try await client.get("/sql?q=SELECT+1")
            #expect(busy.status == .serviceUnavailable, "the one thread streams the endless answer")
            leaving = nil
            var status = busy.status
            for _ in 0..<200 where status != .ok {
                try await Task.sleep(for: .milliseconds(50))
                status = try await client.get("/sql?q=SELECT+1").status
            }
            #expect(status == .ok, "the statement of the client that left was stopped")
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains("tally_sql_statements_stopped_total{limit=\"client-gone\"} 1\n"), "\(metrics)")
        }
    }
}
