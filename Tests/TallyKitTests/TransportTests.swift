import Foundation
import Testing
import TallyEvents
@testable import TallyKit

@Suite("Transports")
struct TransportTests {
    static let ndjson = Array("{\"a\":1}\n{\"b\":2}\n".utf8)

    @Test("body shapes of api.md's write paths")
    func shapes() {
        #expect(String(decoding: BatchBodyShape.eventsObject.body(fromNDJSON: Self.ndjson), as: UTF8.self) == #"{"events":[{"a":1},{"b":2}]}"#)
        #expect(String(decoding: BatchBodyShape.array.body(fromNDJSON: Self.ndjson), as: UTF8.self) == #"[{"a":1},{"b":2}]"#)
        #expect(BatchBodyShape.ndjson.body(fromNDJSON: Self.ndjson) == Self.ndjson)
        let reading = HTTPTransport.reportServer(baseURL: URL(string: "http://127.0.0.1:8080")!, family: .reading, token: "t")
        #expect(reading.url.absoluteString == "http://127.0.0.1:8080/learning/reading-events/batch")
        #expect(reading.headers == ["Authorization": "Bearer t"])
    }

    @Test("the NDJSON file sink appends whole batches and repairs a cut last line")
    func fileSink() async throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.ndjson"
        let sink = NDJSONFileTransport(path: path)
        let request = UploadRequest(batchId: 1, family: .reading, ndjson: Self.ndjson, eventCount: 2)
        #expect(try await sink.send(request) == .accepted)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"cut".utf8))
        handle.closeFile()
        _ = try await sink.send(request)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}\n{\"b\":2}\n{\"a\":1}\n{\"b\":2}\n")
    }

    @Test("an unreachable HTTP server is an error to retry, not an answer")
    func unreachable() async throws {
        let transport = HTTPTransport(url: URL(string: "http://127.0.0.1:9/events")!, shape: .ndjson, timeoutSeconds: 5)
        await #expect(throws: TransportError.self) {
            _ = try await transport.send(UploadRequest(batchId: 1, family: .exposure, ndjson: Self.ndjson, eventCount: 2))
        }
    }

    @Test("ClickHouse rows carry properties as a string when asked")
    func clickHouseRows() {
        let transport = ClickHouseTransport(baseURL: URL(string: "http://127.0.0.1:8123")!, table: "db.events")
        let line = Array((String(decoding: QueueFixtures.observability("o-1").wireJSON(), as: UTF8.self) + "\n").utf8)
        let rows = String(decoding: transport.rows(line + Self.ndjson), as: UTF8.self)
        #expect(rows.hasPrefix(#"{"eventId":"o-1","timestamp":1763700000000,"eventName":"view_loaded","sessionId":"s-1","userId":"u-1","properties":"{\"view_name\":\"home\",\"load_duration_ms\":420}"}"#))
        #expect(rows.hasSuffix("\n{\"a\":1}\n{\"b\":2}\n"))
        #expect(transport.insertURL.absoluteString.contains("query=INSERT%20INTO%20db.events%20FORMAT%20JSONEachRow"))
    }
}
