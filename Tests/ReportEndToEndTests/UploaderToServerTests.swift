import Foundation
import TallyEvents
import TallyKit
import TallySupport
import TallyTestSupport
import XCTest

/// TallyKit's uploader posting to `report serve` lands the same numbers as ingesting the same
/// events from a file, while the server is restarted mid-stream and some batches meet a 503.
final class UploaderToServerTests: XCTestCase {
    /// Answers 503 to every third batch it is given (without sending it), like a server that
    /// is briefly overloaded; the others go through to the real server.
    private struct Sometimes503: UploadTransport {
        let wrapped: any UploadTransport
        let sent = Locked(0)

        func send(_ request: UploadRequest) async throws -> UploadResponse {
            let count = sent.withLock { $0 += 1; return $0 }
            if count % 3 == 0 { return UploadResponse(status: 503, retryAfter: "1") }
            return try await wrapped.send(request)
        }

        var clientErrorsDropBatch: Bool { wrapped.clientErrorsDropBatch }
    }

    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testUploadsThroughRestartsAnd503sMatchAFileIngest() async throws {
        let files = try EventFiles()
        let source = files.path("events.ndjson")
        let generator = Process()
        generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        generator.arguments = ["python3", Self.packageRoot.appendingPathComponent("scripts/generate_events.py").path,
                               "--events", "4000", "--seed", "23", "--out", source]
        try generator.run()
        generator.waitUntilExit()
        XCTAssertEqual(generator.terminationStatus, 0)

        let fileDB = files.path("from-file.sqlite"), serverDB = files.path("from-server.sqlite")
        XCTAssertEqual(try ReportBinary.run(["ingest", source, "--db", fileDB]).status, 0)

        let queue = try DurableQueue.open(directory: files.path("queue"))
        defer { queue.close() }
        var enqueued = 0
        for line in try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n") {
            let bytes = Array(line.utf8)
            let result = bytes.withUnsafeBytes { EventValidator.validate($0) }
            guard case .success(let event) = result else { continue }
            queue.enqueue(event)
            enqueued += 1
        }
        XCTAssertGreaterThan(enqueued, 3900)

        var server = try ServeProcess(["--db", serverDB])
        let base = URL(string: server.base)!
        let port = base.port!
        let clock = ManualClock(startMs: 1_795_000_000_000)
        let routes: [EventFamily: any UploadTransport] = [
            .reading: Sometimes503(wrapped: HTTPTransport.reportServer(baseURL: base, family: .reading)),
            .feedback: Sometimes503(wrapped: HTTPTransport.reportServer(baseURL: base, family: .feedback)),
            .exposure: Sometimes503(wrapped: HTTPTransport.reportServer(baseURL: base, family: .events)),
            // The observability kit as the seed configures it: ClickHouse's HTTP insert, here
            // pointed at the server's root.
            .observability: Sometimes503(wrapped: ClickHouseTransport(baseURL: base, table: "app_events",
                                                                      propertiesAsString: false)),
        ]
        let retries = Locked<[String]>([])
        let uploader = Uploader(queue: queue, routes: routes, configuration: UploadConfiguration(batchSize: 100),
                                clock: clock, random: Xoshiro256StarStar(seed: 5)) { entry in
            if entry.kind == .retrying { retries.withLock { $0.append(entry.message) } }
        }

        var rounds = 0
        while queue.stats.pendingEvents + queue.stats.batchedEvents > 0 {
            rounds += 1
            XCTAssertLessThan(rounds, 2_000, "the queue does not drain")
            if rounds == 4 {
                XCTAssertGreaterThan(queue.stats.pendingEvents + queue.stats.batchedEvents, 0, "the restart is mid-stream")
                XCTAssertEqual(server.terminate(), 0)  // the server goes away mid-stream…
                clock.advance(byMs: 20_000)
                await uploader.flush()                 // …and batches due now meet a closed port
                server = try ServeProcess(["--db", serverDB], port: port)
            }
            await uploader.flush()
            clock.advance(byMs: 10_000)
            await uploader.networkBecameReachable()
        }
        XCTAssertEqual(queue.stats.counters.droppedRejected, 0)
        let failures = retries.withLock { $0 }
        XCTAssertTrue(failures.contains { $0.contains("503") }, "some batches met a 503: \(failures)")
        XCTAssertTrue(failures.contains { !$0.contains("503") }, "some batches met the closed port: \(failures)")
        XCTAssertEqual(server.terminate(), 0)

        let now = "2026-11-20T12:00:00Z"
        let questions: [[String]] = [
            ["summary"], ["trend", "--days", "30"], ["heatmap", "--days", "365"],
            ["dislike-rate", "--top-reasons", "3"], ["exposures", "--by", "day"], ["exposures", "--by", "model"],
            ["latency", "--event", "view_loaded", "--field", "load_duration_ms", "--by", "app_version"],
            ["sql", "SELECT * FROM observability_events ORDER BY event_id"],
        ]
        for question in questions {
            let fromFile = try ReportBinary.run(question + ["--format", "json", "--now", now, "--db", fileDB])
            let fromServer = try ReportBinary.run(question + ["--format", "json", "--now", now, "--db", serverDB])
            XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
            XCTAssertEqual(fromServer.stdout, fromFile.stdout, question.joined(separator: " "))
        }
    }
}
