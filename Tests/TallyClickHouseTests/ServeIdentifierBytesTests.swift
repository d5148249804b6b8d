import Foundation
import TallyTestSupport
import XCTest

/// Identifiers are bytes through `report serve` on either store: canonically equivalent ids
/// that differ in bytes (`"caf\u{E9}"`, `"cafe\u{301}"`), uploaded with `POST /events`, are two
/// users, two materials and two models in the summary, the reading progress and the dislike rate.
final class ServeIdentifierBytesTests: XCTestCase {
    private static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"
    private static let now = "now=2026-11-20T12:00:00Z"

    /// `text` percent-encoded byte for byte, every byte but letters and digits escaped.
    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// Two heartbeats, exposures and dislikes: one of each with every id spelt each way.
    private static var body: Data {
        var lines: [String] = []
        for (n, id) in [nfc, nfd].enumerated() {
            let ts = 1_795_165_200_000 + n * 3_600_000
            lines += [
                #"{"eventId":"r\#(n)","userId":"\#(id)","materialId":"\#(id)","eventType":"heartbeat","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(40 * (n + 1))}"#,
                #"{"eventId":"x\#(n)","eventType":"exposure","userId":"u","pageId":"p","pageInstanceId":"p","itemId":"i\#(n)","impressionId":"\#(id)","modelInfo":"\#(id)","feedPosition":1,"clientTimestampMs":\#(ts)}"#,
                #"{"id":"f\#(n)","userId":"u","timestamp":\#(ts + 10),"feedbackType":"dislike","reason":"r","context":{"impressionId":"\#(id)","modelInfo":"\#(id)","feedPosition":1}}"#,
            ]
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    func testEquivalentIdsPostedToEitherServerStayApart() async throws {
        let url = try TestServer.url()
        let client = try TestServer.freshDatabase(url: url)
        defer { TestServer.drop(client) }
        let folder = try temporaryFolder("tally-serve-bytes")
        let servers = [
            ("clickhouse", try ServeProcess(["--backend", "clickhouse", "--clickhouse-url", url, "--clickhouse-database", client.database])),
            ("sqlite", try ServeProcess(["--db", folder.appendingPathComponent("s.sqlite").path])),
        ]
        for (name, server) in servers {
            let (status, upload) = try await server.request("/events", method: "POST", body: Self.body)
            XCTAssertEqual(status, 200, name)
            XCTAssertEqual(try Self.object(upload)["accepted"] as? Int, 6, "\(name): \(String(decoding: upload, as: UTF8.self))")
            let summary = try Self.object(try await server.request("/learning/summary?\(Self.now)").1)
            XCTAssertEqual(summary["materialsStarted"] as? Int, 2, name)
            for (id, seconds) in [(Self.nfc, 40), (Self.nfd, 80)] {
                let mine = try Self.object(try await server.request("/learning/summary?user=\(Self.encoded(id))&\(Self.now)").1)
                XCTAssertEqual(mine["totalActiveSeconds"] as? Int, seconds, "\(name) \(Array(id.utf8))")
                let progress = try Self.object(try await server.request("/materials/\(Self.encoded(id))/reading-progress?\(Self.now)").1)
                XCTAssertEqual(progress["totalActiveSeconds"] as? Int, seconds, "\(name) \(Array(id.utf8))")
            }
            let rate = try Self.object(try await server.request("/feed/dislike-rate?by=model").1)
            let rows = try XCTUnwrap(rate["rows"] as? [[String: Any]], name)
            XCTAssertEqual(Set(rows.compactMap { ($0["modelInfo"] as? String).map { Array($0.utf8) } }),
                           [Array(Self.nfc.utf8), Array(Self.nfd.utf8)], name)
            XCTAssertTrue(rows.allSatisfy { $0["exposures"] as? Int == 1 && $0["dislikes"] as? Int == 1 }, "\(name): \(rows)")
            XCTAssertEqual(server.terminate(), 0, name)
        }
    }

    /// A JSON object's members.
    private static func object(_ data: Data) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
