import Foundation
import HummingbirdTesting
import Testing
import TallySupport
@testable import TallyServer

@Suite struct AdHocSQLEndpointTests {
    private static let endless = "WITH+RECURSIVE+c(x)+AS+(SELECT+1+UNION+ALL+SELECT+x%2B1+FROM+c)+SELECT+count(*)+FROM+c"

    /// Two runaway statements at once end with a 408 naming the limit, and reports and writes
    /// are answered meanwhile: ad hoc SQL has threads of its own.
    @Test func runawayStatementsTimeOutWithoutHoldingReportsOrWrites() async throws {
        let fixture = try ServerFixture(allowSQL: true, sqlTimeout: .milliseconds(500))
        try await fixture.test { client in
            async let first = client.get("/sql?q=\(Self.endless)")
            async let second = client.get("/sql?q=\(Self.endless)")
            let write = try await client.post("/events", ServerFixture.reading("w1", ts: ServerFixture.ms(), delta: 5))
            #expect(write.status == .ok)
            let summary = try await client.get("/learning/summary?now=2026-11-20T12:00:00Z")
            #expect(summary.status == .ok)
            for response in try await [first, second] {
                #expect(response.status == .requestTimeout, "\(response.text)")
                #expect(try response.errorCode() == "SQL_TIMEOUT")
                #expect(response.text.contains("0.5 s limit (--sql-timeout)"), "\(response.text)")
            }
            let after = try await client.get("/sql?q=SELECT+count(*)+AS+n+FROM+reading_events")
            #expect(after.status == .ok, "\(after.text)")
        }
    }

    /// A result over `--sql-max-bytes` or `--sql-max-rows` is refused while it is computed,
    /// before anything is rendered, with an error naming the limit.
    @Test func resultsOverTheSizeLimitsAreRefusedNamingTheLimit() async throws {
        let fixture = try ServerFixture(allowSQL: true, sqlLimits: AdHocLimits(maxBytes: 1 << 20, maxRows: 100))
        try await fixture.test { client in
            for sql in ["SELECT+zeroblob(200000000)", "SELECT+length(upper(hex(zeroblob(100000000))))"] {
                let response = try await client.get("/sql?q=\(sql)")
                #expect(response.status == .badRequest, "\(response.text)")
                #expect(try response.errorCode() == "SQL_TOO_LARGE")
                #expect(response.text.contains("(--sql-max-bytes)"), "\(response.text)")
            }
            let rows = try await client.get("/sql?q=WITH+RECURSIVE+c(i)+AS+(SELECT+0+UNION+ALL+SELECT+i%2B1+FROM+c+WHERE+i<500)+SELECT+i+FROM+c")
            #expect(rows.status == .badRequest, "\(rows.text)")
            #expect(try rows.errorCode() == "SQL_TOO_LARGE")
            #expect(rows.text.contains("(--sql-max-rows)"), "\(rows.text)")
            let small = try await client.get("/sql?q=SELECT+length(zeroblob(1000))+AS+n")
            #expect(small.status == .ok, "\(small.text)")
        }
    }

    /// `/sql` reads only the store: ATTACH answers alike whether the file exists or not, and
    /// neither an ATTACH nor a PRAGMA that sets something is accepted or stays on a connection.
    @Test func attachAndSettingPragmasAreRefused() async throws {
        let fixture = try ServerFixture(allowSQL: true)
        let other = fixture.directory.appendingPathComponent("other.sqlite").path
        _ = FileManager.default.createFile(atPath: other, contents: Data())
        try await fixture.test { client in
            var messages: Set<String> = []
            for path in [other, fixture.directory.appendingPathComponent("missing.sqlite").path, "/etc/hostname"] {
                let response = try await client.get("/sql?q=ATTACH+DATABASE+'\(path)'+AS+x")
                #expect(response.status == .badRequest)
                #expect(try response.errorCode() == "INVALID_SQL")
                messages.insert(response.text)
            }
            #expect(messages.count == 1, "\(messages)")
            for sql in ["PRAGMA+cache_size%3D1", "PRAGMA+busy_timeout%3D1", "PRAGMA+writable_schema%3D1", "BEGIN", "SELECT+load_extension('x')"] {
                let response = try await client.get("/sql?q=\(sql)")
                #expect(response.status == .badRequest, "\(sql)")
                #expect(try response.errorCode() == "INVALID_SQL", "\(sql)")
            }
            let attached = try await client.get("/sql?q=SELECT+count(*)+AS+n+FROM+x.sqlite_master")
            #expect(attached.status == .badRequest)
        }
    }
}
