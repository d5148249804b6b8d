import Foundation
import HummingbirdTesting
import Testing
import TallyServer

/// Identifiers are bytes through the server too: canonically equivalent ids that differ in
/// bytes (`"caf\u{E9}"`, `"cafe\u{301}"`), uploaded with `POST /events`, are two users, two
/// materials and two models in the summary, the reading progress and the dislike rate.
@Suite struct IdentifierBytesEndpointTests {
    private static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
    private static let now = "now=2026-11-20T12:00:00Z"

    /// `text` percent-encoded byte for byte, every byte but letters and digits escaped.
    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test func equivalentIdsUploadedToTheServerStayApart() async throws {
        let fixture = try ServerFixture()
        try await fixture.test { client in
            var lines: [String] = []
            for (n, id) in [Self.nfc, Self.nfd].enumerated() {
                let ts = ServerFixture.ms(hours: -3 + n)
                lines += [
                    ServerFixture.reading("r\(n)", user: id, material: id, ts: ts, delta: 40 * (n + 1)),
                    #"{"eventId":"x\#(n)","eventType":"exposure","userId":"u","pageId":"p","pageInstanceId":"p","itemId":"i\#(n)","impressionId":"\#(id)","modelInfo":"\#(id)","feedPosition":1,"clientTimestampMs":\#(ts)}"#,
                    #"{"id":"f\#(n)","userId":"u","timestamp":\#(ts + 10),"feedbackType":"dislike","reason":"r","context":{"impressionId":"\#(id)","modelInfo":"\#(id)","feedPosition":1}}"#,
                ]
            }
            let upload = try await client.post("/events", lines.joined(separator: "\n"))
            #expect(upload.status == .ok, "\(upload.text)")
            #expect(try upload.json()["accepted"] as? Int == 6, "\(upload.text)")

            let summary = try await client.get("/learning/summary?\(Self.now)")
            #expect(try summary.json()["materialsStarted"] as? Int == 2, "\(summary.text)")
            for (id, seconds) in [(Self.nfc, 40), (Self.nfd, 80)] {
                let mine = try await client.get("/learning/summary?user=\(Self.encoded(id))&\(Self.now)")
                #expect(try mine.json()["totalActiveSeconds"] as? Int == seconds, "\(Array(id.utf8)): \(mine.text)")
                let progress = try await client.get("/materials/\(Self.encoded(id))/reading-progress?\(Self.now)")
                #expect(try progress.json()["totalActiveSeconds"] as? Int == seconds, "\(Array(id.utf8)): \(progress.text)")
            }

            let rate = try await client.get("/feed/dislike-rate?by=model")
            let rows = try #require(try rate.json()["rows"] as? [[String: Any]], "\(rate.text)")
            let models = Set(rows.compactMap { ($0["modelInfo"] as? String).map { Array($0.utf8) } })
            #expect(models == [Array(Self.nfc.utf8), Array(Self.nfd.utf8)], "\(rate.text)")
            #expect(rows.allSatisfy { $0["exposures"] as? Int == 1 && $0["dislikes"] as? Int == 1 }, "\(rate.text)")
        }
    }
}
