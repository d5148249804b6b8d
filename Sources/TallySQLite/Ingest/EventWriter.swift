import TallyEvents
import TallyIngest

/// Inserts validated events: first the compact key is claimed (`KeyRuns`), where a stored key
/// makes the insert a no-op (so the first stored wins); only a new key appends the event's row
/// to its family's table.
final class EventWriter {
    private let database: Database
    /// The stored keys.
    let keys: KeyRuns
    private let reading: Statement
    private let feedback: Statement
    private let exposure: Statement
    private let observability: Statement

    init(database db: Database) throws {
        database = db
        keys = try KeyRuns(database: db)
        reading = try db.prepare("""
            INSERT INTO reading_events (event_id, user_id, session_id, material_id, event_type, ts_ms, tz_minutes,
                local_date, sequence, active_seconds, progress, position, target_type, title, knowledge_base_id,
                platform, app_version, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        feedback = try db.prepare("""
            INSERT INTO feedback_events (id, user_id, ts_ms, tz_minutes, local_date, feedback_type, reason,
                impression_id, model_info, feed_position, item_id, context, platform, app_version, extra)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        exposure = try db.prepare("""
            INSERT INTO exposure_events (event_id, user_id, ts_ms, tz_minutes, local_date, page_id,
                page_instance_id, item_id, impression_id, model_info, feed_position, visible_ratio, dwell_ms,
                platform, app_version, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        observability = try db.prepare("""
            INSERT INTO observability_events (event_id, user_id, ts_ms, tz_minutes, local_date, event_name,
                session_id, properties, platform, app_version, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Inserts `event`; false when its idempotency key was already stored. `claimed` is what
    /// `claim(_:)` found for it.
    func insert(_ event: Event, localDate: String, claimed: Bool) throws -> Bool {
        guard claimed else { return false }
        let statement: Statement
        switch event {
        case .reading(let e):
            statement = reading
            statement.bind(e.eventId, at: 1)
            statement.bind(e.common.userId, at: 2)
            statement.bind(e.clientSessionId, at: 3)
            statement.bind(e.materialId, at: 4)
            statement.bind(e.kind.rawValue, at: 5)
            statement.bind(e.clientTimestampMs, at: 6)
            statement.bind(Int64(e.common.timezoneOffsetMinutes), at: 7)
            statement.bind(localDate, at: 8)
            statement.bind(e.sequence, at: 9)
            statement.bind(Int64(e.activeSecondsDelta), at: 10)
            statement.bind(e.progress, at: 11)
            statement.bind(e.positionJSON, at: 12)
            statement.bind(e.targetType.rawValue, at: 13)
            statement.bind(e.title, at: 14)
            statement.bind(e.knowledgeBaseId, at: 15)
            statement.bind(e.common.platform, at: 16)
            statement.bind(e.common.appVersion, at: 17)
            statement.bind(e.common.extraJSON, at: 18)
        case .feedback(let e):
            statement = feedback
            statement.bind(e.id, at: 1)
            statement.bind(e.common.userId, at: 2)
            statement.bind(e.timestampMs, at: 3)
            statement.bind(Int64(e.common.timezoneOffsetMinutes), at: 4)
            statement.bind(localDate, at: 5)
            statement.bind(e.kind.rawValue, at: 6)
            statement.bind(e.reason, at: 7)
            statement.bind(e.impressionId, at: 8)
            statement.bind(e.modelInfo, at: 9)
            statement.bind(Int64(e.feedPosition), at: 10)
            statement.bind(e.itemId, at: 11)
            statement.bind(e.contextJSON ?? "{}", at: 12)
            statement.bind(e.common.platform, at: 13)
            statement.bind(e.common.appVersion, at: 14)
            statement.bind(e.common.extraJSON, at: 15)
        case .exposure(let e):
            statement = exposure
            statement.bind(e.eventId, at: 1)
            statement.bind(e.common.userId, at: 2)
            statement.bind(e.clientTimestampMs, at: 3)
            statement.bind(Int64(e.common.timezoneOffsetMinutes), at: 4)
            statement.bind(localDate, at: 5)
            statement.bind(e.pageId, at: 6)
            statement.bind(e.pageInstanceId, at: 7)
            statement.bind(e.itemId, at: 8)
            statement.bind(e.impressionId, at: 9)
            statement.bind(e.modelInfo, at: 10)
            statement.bind(e.feedPosition.map(Int64.init), at: 11)
            statement.bind(e.visibleRatio, at: 12)
            statement.bind(e.dwellMs, at: 13)
            statement.bind(e.common.platform, at: 14)
            statement.bind(e.common.appVersion, at: 15)
            statement.bind(e.common.extraJSON, at: 16)
        case .observability(let e):
            statement = observability
            statement.bind(e.eventId, at: 1)
            statement.bind(e.common.userId, at: 2)
            statement.bind(e.timestampMs, at: 3)
            statement.bind(Int64(e.common.timezoneOffsetMinutes), at: 4)
            statement.bind(localDate, at: 5)
            statement.bind(e.eventName, at: 6)
            statement.bind(e.sessionId, at: 7)
            statement.bind(e.propertiesJSON, at: 8)
            statement.bind(e.common.platform, at: 9)
            statement.bind(e.common.appVersion, at: 10)
            statement.bind(e.common.extraJSON, at: 11)
        }
        try statement.step()
        statement.reset()
        return true
    }

    /// Claims the keys of the chunk's valid records in key order, so that consecutive seeks
    /// land on the same or neighbouring pages instead of anywhere; true for each record whose
    /// key was new (the first of equal keys in the chunk claims it). The caller must store the
    /// chunk's claimed events in the same transaction.
    func claim(_ chunk: ValidatedChunk) throws -> [Bool] {
        try keys.refresh()
        var claimed = [Bool](repeating: false, count: chunk.entries.count)
        var new = 0
        try chunk.keys.withUnsafeBytes { bytes in
            try chunk.entries.withUnsafeBufferPointer { entries in
                for i in chunk.keyOrder() where try keys.claim(UnsafeRawBufferPointer(rebasing: bytes[entries[Int(i)].key])) {
                    claimed[Int(i)] = true
                    new += 1
                }
            }
        }
        try keys.noteClaimed(new)
        return claimed
    }
}
