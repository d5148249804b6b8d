import Foundation
import HummingbirdTesting
import TallyQuery
import TallyRender
import TallySQLite
@testable import TallyServer
import Testing

@Suite struct PathDecodingTests {
    /// A material id in the path is percent-decoded before it is asked for: a space, a `/`
    /// (`%2F`, still one segment) and CJK answer as `report progress ID` does.
    @Test func materialIdsArePercentDecoded() async throws {
        let fixture = try ServerFixture()
        let ids: [(encoded: String, id: String)] = [("m%2042", "m 42"), ("a%2Fb", "a/b"), ("%E6%95%99%E6%9D%90%207", "教材 7"), ("c+d", "c+d")]
        let events = ids.enumerated().map { index, pair in
            ServerFixture.reading("p\(index)", material: pair.id, ts: ServerFixture.ms(hours: -1), delta: 30)
        }.joined(separator: "\n")
        try await fixture.test { client in
            #expect(try await client.post("/events", events).status == .ok)
            let reports = SQLiteReports(store: try EventStore(readingAt: fixture.storePath))
            for (encoded, id) in ids {
                let response = try await client.get("/materials/\(encoded)/reading-progress?now=2026-11-20T12:00:00Z")
                #expect(response.status == .ok, "\(encoded): \(response.text)")
                let expected = try reports.answer(.progress(materialId: id), context: ReportContext(user: nil, nowMs: ServerFixture.ms(), timezoneOffsetMinutes: nil),
                                                  renderer: Renderer(color: false), format: .json)
                #expect(response.text == expected, "\(encoded)")
                #expect(!response.text.contains("not_started"), "\(encoded): \(response.text)")
            }
            for bad in ["m%2", "m%zz", "m%FF"] {
                let response = try await client.get("/materials/\(bad)/reading-progress")
                #expect(response.status == .badRequest, "\(bad)")
                #expect(try response.errorCode() == "INVALID_PARAMETER", "\(bad)")
            }
        }
    }
}
