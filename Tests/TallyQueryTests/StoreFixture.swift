import Foundation
import TallyIngest
import TallySQLite
import TallyTestSupport

/// A throwaway store filled with JSON lines through the real ingest path.
final class StoreFixture {
    let directory: URL
    let store: EventStore

    init(_ lines: [String], batchSize: Int = 7) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-query-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try EventStore(path: directory.appendingPathComponent("q.sqlite").path)
        let ingestor = try Ingestor(store: store, batchSize: batchSize)
        for outcome in try ingestor.store(lines: lines, file: "fixture", groupSize: batchSize) {
            if case .rejected(let rejection) = outcome {
                throw rejection
            }
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Milliseconds of `2026-11-20T12:00:00Z` plus `days` and `hours`.
    static func ms(days: Int = 0, hours: Int = 0) -> Int64 {
        1_795_176_000_000 + Int64(days) * 86_400_000 + Int64(hours) * 3_600_000
    }

    static func reading(_ id: String, user: String = "u", material: String = "m", type: String = "heartbeat",
                        ts: Int64, delta: Int = 0, tz: Int = 0, extra: String = "") -> String {
        #"{"eventId":"\#(id)","userId":"\#(user)","materialId":"\#(material)","eventType":"\#(type)","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(delta),"clientTimezoneOffsetMinutes":\#(tz)\#(extra)}"#
    }

    static func feedback(_ id: String, user: String = "u", impression: String, type: String, ts: Int64, model: String = "v1",
                         position: Int = 0, reason: String? = nil, extra: String = "") -> String {
        let reasonField = reason.map { #","reason":"\#($0)""# } ?? ""
        return #"{"id":"\#(id)","userId":"\#(user)","timestamp":\#(ts),"feedbackType":"\#(type)"\#(reasonField),"context":{"impressionId":"\#(impression)","modelInfo":"\#(model)","feedPosition":\#(position)}\#(extra)}"#
    }

    static func exposure(_ id: String, user: String = "u", page: String = "home", pageInstance: String, item: String,
                         impression: String, ts: Int64, model: String = "v1", position: Int = 0, extra: String = "") -> String {
        #"{"eventId":"\#(id)","eventType":"exposure","userId":"\#(user)","pageId":"\#(page)","pageInstanceId":"\#(pageInstance)","itemId":"\#(item)","impressionId":"\#(impression)","modelInfo":"\#(model)","feedPosition":\#(position),"clientTimestampMs":\#(ts)\#(extra)}"#
    }

    static func observed(_ id: String, name: String, user: String = "u", ts: Int64 = 1, properties: String) -> String {
        #"{"eventId":"\#(id)","eventName":"\#(name)","sessionId":"s","userId":"\#(user)","timestamp":\#(ts),"properties":\#(properties)}"#
    }
}
