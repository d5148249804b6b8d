import Foundation
import TallyEvents
@testable import TallyKit

/// Temporary queue folders and sample events for the queue and uploader tests.
enum QueueFixtures {
    /// A fresh folder under the temporary directory; the caller removes it.
    static func directory() -> String {
        let path = NSTemporaryDirectory() + "tally-queue-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An observability event with id `id`.
    static func observability(_ id: String, ms: Int64 = 1_763_700_000_000) -> Event {
        .observability(ObservabilityEvent(eventId: id, timestampMs: ms, eventName: "view_loaded", sessionId: "s-1",
                                          propertiesJSON: #"{"view_name":"home","load_duration_ms":420}"#,
                                          common: EventCommon(userId: "u-1")))
    }

    /// A reading event with id `id`.
    static func reading(_ id: String) -> Event {
        .reading(ReadingEvent(eventId: id, materialId: "m-1", kind: .heartbeat, clientTimestampMs: 1_763_700_000_000,
                              activeSecondsDelta: 15))
    }

    /// A feedback event with id `id`.
    static func feedback(_ id: String) -> Event {
        .feedback(FeedbackEvent(id: id, timestampMs: 1_763_700_000_000, kind: .dislike, impressionId: "imp-1",
                                modelInfo: "rec-v1", feedPosition: 2))
    }

    /// An exposure event with id `id`.
    static func exposure(_ id: String) -> Event {
        .exposure(ExposureEvent(eventId: id, clientTimestampMs: 1_763_700_000_000, pageInstanceId: "p-1", itemId: "item-1"))
    }

    /// The idempotency keys of the events in an NDJSON body, in order.
    static func ids(in body: [UInt8]) -> [String] {
        NDJSONLines.ranges(in: body).compactMap { range in
            body[range].withUnsafeBytes { try? EventValidator.validate($0).get().idempotencyKey }
        }
    }

    /// Every event id the queue still holds (in batches, then not yet batched), forming batches
    /// of `family`-agnostic size 1000 until nothing is left unbatched.
    static func drainIds(_ queue: DurableQueue) throws -> [String] {
        while try !queue.formBatches(maxEvents: 1000, nowMs: 0, maxOpenBatches: .max).isEmpty {}
        return try queue.batches().flatMap { ids(in: try queue.body(ofBatch: $0.id)) }
    }
}
