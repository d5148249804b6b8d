import Foundation
import TallyEvents
import TallyKit
import Testing

/// The README's "Using TallyKit in an app" example, kept compiling and working.
struct ReadmeExampleTests {
    @Test func theREADMEExampleWiresAnApp() async throws {
        let appSupport = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: appSupport, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: appSupport) }

        let queue = try DurableQueue.open(directory: appSupport.appendingPathComponent("tally").path)
        defer { queue.close() }
        let server = URL(string: "https://analytics.example.com")!
        let uploader = Uploader(queue: queue, routes: [
            .reading: HTTPTransport.reportServer(baseURL: server, family: .reading),
            .feedback: HTTPTransport.reportServer(baseURL: server, family: .feedback),
            .exposure: HTTPTransport.reportServer(baseURL: server, family: .events),
            .observability: ClickHouseTransport(baseURL: URL(string: "http://clickhouse:8123")!, table: "app_events"),
        ])
        _ = uploader

        let common = EventCommon(userId: "u-1", timezoneOffsetMinutes: 480, platform: "ios", appVersion: "2.3.0")
        let reading = ReadingTracker(sink: queue, clock: SystemClock(),
                                     store: try FileReadingStateStore(directory: appSupport),
                                     configuration: ReadingTrackerConfiguration(common: common))
        reading.openMaterial(ReadingMaterial(materialId: "m-42", title: "线性代数"))
        let app = ObservabilityTracker(sink: queue, clock: SystemClock(), common: common)
        let receipt = try #require(app.trackViewLoaded("home_view", loadDurationMs: 420))
        try await queue.waitUntilDurable(receipt)
        #expect(queue.stats.pendingEvents == 2)
    }
}
