import Foundation
import Testing
import TallyEvents
@testable import TallyKit

@Suite("Durable queue")
struct DurableQueueTests {
    @Test("batches keep queue order and never mix families")
    func batchesPerFamily() async throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try DurableQueue.open(directory: directory)
        defer { queue.close() }
        var last = EnqueueReceipt(sequence: 0)
        for index in 0..<10 {
            last = queue.enqueue(index % 2 == 0 ? QueueFixtures.reading("r-\(index)") : QueueFixtures.feedback("f-\(index)"))
        }
        try await queue.waitUntilDurable(last)
        #expect(queue.stats.pendingEvents == 10)
        let batches = try queue.formBatches(maxEvents: 50, nowMs: 7)
        #expect(batches.map(\.family) == [.reading, .feedback])
        #expect(batches.map(\.nextAttemptMs) == [7, 7])
        #expect(try QueueFixtures.ids(in: queue.body(ofBatch: batches[0].id)) == ["r-0", "r-2", "r-4", "r-6", "r-8"])
        #expect(try QueueFixtures.ids(in: queue.body(ofBatch: batches[1].id)) == ["f-1", "f-3", "f-5", "f-7", "f-9"])
        #expect(queue.stats.pendingEvents == 0)
        #expect(queue.stats.batchedEvents == 10)
    }

    @Test("a batch stops at maxEvents and the rest waits for the next one")
    func batchSize() throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try DurableQueue.open(directory: directory)
        defer { queue.close() }
        for index in 0..<7 { queue.enqueue(QueueFixtures.observability("o-\(index)")) }
        let first = try queue.formBatches(maxEvents: 3, nowMs: 0)
        #expect(first.map(\.eventCount) == [3])
        let second = try queue.formBatches(maxEvents: 3, nowMs: 0)
        #expect(try QueueFixtures.ids(in: queue.body(ofBatch: second[0].id)) == ["o-3", "o-4", "o-5"])
        #expect(try queue.formBatches(maxEvents: 3, nowMs: 0, maxOpenBatches: 2).isEmpty)
    }

    @Test("reopening reloads unbatched events and batches with their retry state; acked ones never come back")
    func reload() throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var queue = try DurableQueue.open(directory: directory)
        for index in 0..<6 { queue.enqueue(QueueFixtures.exposure("x-\(index)")) }
        let batch = try #require(try queue.formBatches(maxEvents: 2, nowMs: 0).first)
        let second = try #require(try queue.formBatches(maxEvents: 2, nowMs: 0).first)
        let body = try queue.body(ofBatch: second.id)
        try queue.acknowledge(batch.id)
        try queue.reschedule(second.id, retryCount: 3, nextAttemptMs: 8_000, error: "HTTP 503")
        try queue.markInFlight(second.id)
        queue.close()

        queue = try DurableQueue.open(directory: directory)
        defer { queue.close() }
        #expect(queue.stats.pendingEvents == 2)
        #expect(queue.stats.counters.acknowledged == 2)
        let reloaded = try #require(queue.batches().first)
        #expect(reloaded == QueuedBatch(id: second.id, family: .exposure, eventCount: 2, retryCount: 3, nextAttemptMs: 8_000,
                                        state: .pending, lastError: "HTTP 503"))
        #expect(try queue.body(ofBatch: second.id) == body, "a retry resends the same bytes")
        #expect(try QueueFixtures.drainIds(queue) == ["x-2", "x-3", "x-4", "x-5"])
    }

    @Test("answers: dropped lines are counted, kept ones parked, a split keeps order")
    func answers() throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try DurableQueue.open(directory: directory)
        defer { queue.close() }
        for index in 0..<5 { queue.enqueue(QueueFixtures.reading("r-\(index)")) }
        let batch = try #require(try queue.formBatches(maxEvents: 50, nowMs: 0).first)
        #expect(try queue.split(batch.id, nowMs: 5))
        let halves = queue.batches()
        #expect(halves.map(\.eventCount) == [2, 3])
        #expect(try QueueFixtures.ids(in: queue.body(ofBatch: halves[1].id)) == ["r-2", "r-3", "r-4"])
        try queue.acknowledge(halves[1].id, dropped: [0], kept: [2], error: "HTTP 409")
        let parked = try #require(queue.batches().last)
        #expect(parked.state == .parked && parked.lastError == "HTTP 409" && parked.eventCount == 1)
        #expect(try QueueFixtures.ids(in: queue.body(ofBatch: parked.id)) == ["r-4"])
        #expect(queue.stats.counters.acknowledged == 1 && queue.stats.counters.droppedRejected == 1)
        try queue.retryParkedBatches(nowMs: 9)
        #expect(queue.batches().last?.state == .pending && queue.batches().last?.nextAttemptMs == 9)
        try queue.drop(halves[0].id)
        #expect(queue.stats.counters.droppedRejected == 3)
        let single = try #require(queue.batches().last)
        #expect(try !queue.split(single.id, nowMs: 0))
    }

    @Test("over maxBytes the oldest events are dropped and counted")
    func dropOldest() throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = QueueConfiguration(segmentBytes: 64 * 1024, maxBytes: 192 * 1024)
        let queue = try DurableQueue.open(directory: directory, configuration: configuration)
        defer { queue.close() }
        let count = 3000
        for index in 0..<count { queue.enqueue(QueueFixtures.observability("o-\(index)")) }
        try queue.commit()
        try queue.enforceBound()
        let stats = queue.stats
        #expect(stats.counters.droppedOldest > 0)
        #expect(stats.bytesOnDisk <= configuration.maxBytes)
        let left = try QueueFixtures.drainIds(queue)
        #expect(UInt64(left.count) + queue.stats.counters.droppedOldest == UInt64(count))
        #expect(left.last == "o-\(count - 1)")
        #expect(left == (count - left.count..<count).map { "o-\($0)" }, "the newest events are the ones kept")
    }

    @Test("a corrupted record is quarantined once, its neighbours kept")
    func quarantine() throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var queue = try DurableQueue.open(directory: directory)
        for index in 0..<3 { queue.enqueue(QueueFixtures.observability("o-\(index)")) }
        try queue.commit()
        queue.close()
        let segment = directory + "/segments/" + MappedSegment.fileName(1)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: segment)))
        let second = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("o-1".utf8)) })
        bytes[second] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: segment))

        queue = try DurableQueue.open(directory: directory)
        #expect(queue.stats.counters.quarantined == 1)
        #expect(queue.stats.pendingEvents == 2)
        queue.close()
        queue = try DurableQueue.open(directory: directory)
        defer { queue.close() }
        #expect(queue.stats.counters.quarantined == 1, "known bad ranges are not counted again")
        #expect(try QueueFixtures.drainIds(queue) == ["o-0", "o-2"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/quarantine").count == 1)
    }

    @Test("oversize events are refused and counted")
    func oversize() throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try DurableQueue.open(directory: directory, configuration: QueueConfiguration(segmentBytes: 64 * 1024))
        defer { queue.close() }
        let big = Event.observability(ObservabilityEvent(eventId: "big", timestampMs: 1, eventName: "n", sessionId: "s",
                                                         propertiesJSON: "{\"a\":\"" + String(repeating: "x", count: 20_000) + "\"}"))
        queue.enqueue(big)
        #expect(queue.stats.counters.droppedOversize == 1)
        #expect(queue.stats.pendingEvents == 0)
    }

    @Test("waiting for durability after close fails")
    func closed() async throws {
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try DurableQueue.open(directory: directory)
        queue.close()
        let receipt = queue.enqueue(QueueFixtures.reading("late"))
        await #expect(throws: QueueError.closed) { try await queue.waitUntilDurable(receipt) }
    }
}
