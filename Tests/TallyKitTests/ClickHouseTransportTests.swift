import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TallyEvents
@testable import TallyKit

/// Against a real ClickHouse server (`TALLY_CLICKHOUSE_URL`, e.g. http://127.0.0.1:8123).
@Suite("ClickHouse transport", .enabled(if: ProcessInfo.processInfo.environment["TALLY_CLICKHOUSE_URL"] != nil,
                                        "set TALLY_CLICKHOUSE_URL to a ClickHouse HTTP endpoint to run these"))
struct ClickHouseTransportTests {
    static let baseURL = URL(string: ProcessInfo.processInfo.environment["TALLY_CLICKHOUSE_URL"] ?? "http://127.0.0.1:8123")!

    /// Runs `sql` and returns ClickHouse's text answer.
    static func query(_ sql: String) async throws -> String {
        var request = URLRequest(url: baseURL)
        request.httpMethod = "POST"
        request.httpBody = Data(sql.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let text = String(decoding: data, as: UTF8.self)
        guard status == 200 else { throw TransportError("ClickHouse answered \(status): \(text)") }
        return text
    }

    @Test("a gzip JSONEachRow batch lands in the table; unparseable rows are a 4xx")
    func insert() async throws {
        let table = "default.tally_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try await Self.query("CREATE TABLE \(table) (eventId String, timestamp Int64, eventName String, sessionId String, "
                                 + "userId String, properties String) ENGINE = Memory")
        let transport = ClickHouseTransport(baseURL: Self.baseURL, table: table)
        let events = (0..<120).map { QueueFixtures.observability("o-\($0)") }
        let ndjson: [UInt8] = events.flatMap { $0.wireJSON() + [UInt8(0x0A)] }
        let response = try await transport.send(UploadRequest(batchId: 1, family: .observability, ndjson: ndjson, eventCount: 120))
        #expect(response.status == 200)
        #expect(response.body.allSatisfy { $0 == 0x0A || $0 == 0x20 })
        #expect(try await Self.query("SELECT count() FROM \(table)") == "120\n")
        #expect(try await Self.query("SELECT visitParamExtractUInt(properties, 'load_duration_ms') FROM \(table) LIMIT 1") == "420\n")

        let bad = try await transport.send(UploadRequest(batchId: 2, family: .observability,
                                                         ndjson: Array("{\"timestamp\":\"soon\"}\n".utf8), eventCount: 1))
        #expect((400..<500).contains(bad.status), "ClickHouse answered \(bad.status)")
        _ = try await Self.query("DROP TABLE \(table)")
    }

    @Test("through the uploader: acknowledged and counted")
    func throughUploader() async throws {
        let table = "default.tally_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try await Self.query("CREATE TABLE \(table) (eventId String, timestamp Int64, eventName String, sessionId String, "
                                 + "properties String) ENGINE = Memory")
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try DurableQueue.open(directory: directory)
        defer { queue.close() }
        let uploader = Uploader(queue: queue, routes: [.observability: ClickHouseTransport(baseURL: Self.baseURL, table: table)],
                                clock: ManualClock(startMs: 0))
        for index in 0..<75 { queue.enqueue(QueueFixtures.observability("o-\(index)")) }
        await uploader.flush()
        #expect(queue.stats.counters.acknowledged == 75)
        #expect(try await Self.query("SELECT count() FROM \(table)") == "75\n")
        _ = try await Self.query("DROP TABLE \(table)")
    }
}
