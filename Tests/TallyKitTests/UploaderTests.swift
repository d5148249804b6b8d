import Foundation
import Testing
import TallyEvents
import TallyTestSupport
@testable import TallyKit

@Suite("Uploader")
struct UploaderTests {
    @Test("flushes at the batch size, on the interval and on going to the background")
    func flushTriggers() async throws {
        let harness = try UploaderHarness()
        defer { harness.tearDown() }
        for index in 0..<10 { harness.queue.enqueue(QueueFixtures.reading("r-\(index)")) }
        await harness.uploader.tick()
        #expect(harness.transport.requests.isEmpty, "10 < 50 events and the interval has not passed")
        harness.clock.advance(byMs: 29_999)
        await harness.uploader.tick()
        #expect(harness.transport.requests.isEmpty)
        harness.clock.advance(byMs: 1)
        await harness.uploader.tick()
        #expect(harness.sentIds == [(0..<10).map { "r-\($0)" }])

        for index in 0..<120 { harness.queue.enqueue(QueueFixtures.observability("o-\(index)")) }
        await harness.uploader.tick()
        #expect(harness.sentIds.dropFirst().map(\.count) == [50, 50, 20], "a batch's worth waits: flush everything")

        harness.queue.enqueue(QueueFixtures.feedback("f-1"))
        await harness.uploader.appDidEnterBackground()
        #expect(harness.sentIds.last == ["f-1"])
        #expect(harness.queue.stats.counters.acknowledged == 131)
        #expect(harness.queue.stats.batches == 0)
    }

    @Test("per-event answers: drop codes dropped and logged, duplicates acked, other codes parked")
    func perEventAnswers() async throws {
        let harness = try UploaderHarness()
        defer { harness.tearDown() }
        for index in 0..<5 { harness.queue.enqueue(QueueFixtures.reading("r-\(index)")) }
        harness.transport.script(UploaderHarness.ok(#"{"accepted":1,"duplicates":["r-1"],"rejected":["#
            + #"{"eventId":"r-0","line":1,"code":"INVALID_FIELD","message":"bad"},"#
            + #"{"eventId":"r-2","line":3,"code":"DUPLICATE_EVENT","message":"seen"},"#
            + #"{"line":4,"code":"MATERIAL_ACCESS_DENIED","message":"no"},"#
            + #"{"eventId":"r-4","code":"QUOTA_EXCEEDED","message":"later"}]}"#))
        await harness.uploader.flush()
        let stats = harness.queue.stats
        #expect(stats.counters.droppedRejected == 2)
        #expect(stats.counters.acknowledged == 2)
        let parked = try #require(harness.queue.batches().first)
        #expect(parked.state == .parked && parked.lastError == "rejected: QUOTA_EXCEEDED")
        #expect(try QueueFixtures.ids(in: harness.queue.body(ofBatch: parked.id)) == ["r-4"])
        #expect(harness.logged.withLock { $0.filter { $0.kind == .eventDropped }.compactMap(\.eventId) } == ["r-0", "r-3"])
        harness.clock.advance(byMs: 60_000)
        await harness.uploader.tick()
        #expect(harness.transport.requests.count == 1, "a parked batch is not retried")
    }

    @Test("5xx and timeouts back off 1, 2, 4, 8 s with seeded jitter, then wait for a flush or the network")
    func backoff() async throws {
        let harness = try UploaderHarness(seed: 7)
        defer { harness.tearDown() }
        harness.queue.enqueue(QueueFixtures.exposure("x-1"))
        harness.transport.script(UploaderHarness.status(503), .fail(TransportError("timed out")), UploaderHarness.status(500),
                                 UploaderHarness.status(502), UploaderHarness.status(504), UploaderHarness.status(500))
        var expectedRandom = SplitMix64(seed: 7)
        await harness.uploader.flush()
        for base: Int64 in [1000, 2000, 4000, 8000] {
            let batch = try #require(harness.queue.batches().first)
            let jitter = Int64(Double(base) * 0.2 * Double.random(in: 0..<1, using: &expectedRandom))
            #expect(batch.nextAttemptMs == harness.clock.nowMs() + base + jitter)
            let attempts = harness.transport.requests.count
            harness.clock.set(toMs: batch.nextAttemptMs! - 1)
            await harness.uploader.tick()
            #expect(harness.transport.requests.count == attempts, "nothing before the attempt is due")
            harness.clock.advance(byMs: 1)
            await harness.uploader.tick()
            #expect(harness.transport.requests.count == attempts + 1)
        }
        let waiting = try #require(harness.queue.batches().first)
        #expect(waiting.nextAttemptMs == nil && waiting.retryCount == 5 && waiting.state == .pending)
        harness.clock.advance(byMs: 10_000)
        await harness.uploader.tick()
        #expect(harness.transport.requests.count == 5, "after the schedule, only a flush retries (the last was < 30 s ago)")
        await harness.uploader.networkBecameReachable()
        #expect(harness.transport.requests.count == 6)
        #expect(harness.queue.batches().first?.retryCount == 1, "a flush restarts the schedule")
        #expect(harness.queue.stats.counters.droppedRejected == 0, "never dropped")
        let bodies = Set(harness.transport.requests.map(\.ndjson))
        #expect(bodies.count == 1, "every attempt sends the same bytes")
    }

    @Test("Retry-After in seconds and as an HTTP date")
    func retryAfter() async throws {
        let harness = try UploaderHarness()
        defer { harness.tearDown() }
        harness.queue.enqueue(QueueFixtures.exposure("x-1"))
        let now = harness.clock.nowMs()
        harness.transport.script(UploaderHarness.status(429, retryAfter: "7"),
                                 UploaderHarness.status(503, retryAfter: "Fri, 21 Nov 2025 04:41:00 GMT"))
        await harness.uploader.flush()
        #expect(harness.queue.batches().first?.nextAttemptMs == now + 7000)
        harness.clock.advance(byMs: 7000)
        await harness.uploader.tick()
        #expect(harness.queue.batches().first?.nextAttemptMs == 1_763_700_060_000)
        #expect(RetryAfter.delayMs("Fri, 21 Nov 2025 04:41:00 GMT", nowMs: 1_763_700_000_000) == 60_000)
        #expect(RetryAfter.delayMs(" 120 ", nowMs: 0) == 120_000)
        #expect(RetryAfter.delayMs("soon", nowMs: 0) == nil)
        #expect(RetryAfter.delayMs("Thu, 01 Jan 1970 00:00:00 GMT", nowMs: 5) == 0)
    }

    @Test("413 splits the batch and sends the halves; a single event too large is parked")
    func split() async throws {
        let harness = try UploaderHarness()
        defer { harness.tearDown() }
        for index in 0..<4 { harness.queue.enqueue(QueueFixtures.feedback("f-\(index)")) }
        harness.transport.script(UploaderHarness.status(413), UploaderHarness.status(413), UploaderHarness.status(413))
        await harness.uploader.flush()
        #expect(harness.sentIds == [["f-0", "f-1", "f-2", "f-3"], ["f-0", "f-1"], ["f-0"], ["f-1"], ["f-2", "f-3"]])
        let parked = try #require(harness.queue.batches().first)
        #expect(parked.state == .parked && parked.eventCount == 1)
        #expect(harness.queue.stats.counters.acknowledged == 3)
    }

    @Test("another 4xx keeps the batch and stops retrying it; a ClickHouse-like destination drops and counts it")
    func clientErrors() async throws {
        let keeping = try UploaderHarness()
        defer { keeping.tearDown() }
        keeping.queue.enqueue(QueueFixtures.reading("r-1"))
        keeping.transport.script(UploaderHarness.status(403))
        await keeping.uploader.flush()
        #expect(keeping.queue.batches().first?.state == .parked)
        #expect(await keeping.uploader.lastError == #"HTTP 403: {"error":"x"}"#)
        try keeping.queue.retryParkedBatches(nowMs: keeping.clock.nowMs())
        await keeping.uploader.tick()
        #expect(keeping.queue.stats.counters.acknowledged == 1)

        let dropping = try UploaderHarness(clientErrorsDropBatch: true)
        defer { dropping.tearDown() }
        dropping.queue.enqueue(QueueFixtures.observability("o-1"))
        dropping.transport.script(UploaderHarness.status(400))
        await dropping.uploader.flush()
        #expect(dropping.queue.stats.counters.droppedRejected == 1)
        #expect(dropping.queue.batches().isEmpty)
    }

    @Test("offline nothing is sent; the network's return flushes")
    func offline() async throws {
        let harness = try UploaderHarness()
        defer { harness.tearDown() }
        harness.reachability.set(reachable: false)
        for index in 0..<60 { harness.queue.enqueue(QueueFixtures.reading("r-\(index)")) }
        harness.clock.advance(byMs: 60_000)
        await harness.uploader.tick()
        #expect(harness.transport.requests.isEmpty)
        harness.reachability.set(reachable: true)
        await harness.uploader.networkBecameReachable()
        #expect(harness.sentIds.map(\.count) == [50, 10])
    }

    @Test("a family without a route is parked, the others go")
    func missingRoute() async throws {
        let harness = try UploaderHarness(routes: [.reading])
        defer { harness.tearDown() }
        harness.queue.enqueue(QueueFixtures.reading("r-1"))
        harness.queue.enqueue(QueueFixtures.feedback("f-1"))
        await harness.uploader.flush()
        #expect(harness.sentIds == [["r-1"]])
        #expect(harness.queue.batches().map(\.state) == [.parked])
    }

    @Test("the next due time is the earliest of the next flush and the next attempt")
    func nextDue() async throws {
        let harness = try UploaderHarness()
        defer { harness.tearDown() }
        let start = harness.clock.nowMs()
        await harness.uploader.tick()
        #expect(await harness.uploader.nextDueMs() == start + 30_000)
        harness.queue.enqueue(QueueFixtures.reading("r-1"))
        harness.transport.script(UploaderHarness.status(500, retryAfter: "2"))
        await harness.uploader.flush()
        #expect(await harness.uploader.nextDueMs() == start + 2000)
    }
}
