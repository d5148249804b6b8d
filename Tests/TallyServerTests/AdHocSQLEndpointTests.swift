import Foundation
import HummingbirdTesting
import Testing
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
