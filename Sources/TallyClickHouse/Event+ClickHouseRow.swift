import TallyEvents

extension EventFamily {
    /// The table the family's events are stored in.
    var clickHouseTable: String {
        switch self {
        case .reading: "reading_events"
        case .feedback: "feedback_events"
        case .exposure: "exposure_events"
        case .observability: "observability_events"
        }
    }

    /// The columns `Event.writeClickHouseRow` writes for this family, in its order
    /// (`ClickHouseSchema`).
    var clickHouseColumns: [String] {
        let head = [self == .feedback ? "id" : "event_id", "user_id", "ts_ms", "tz_minutes", "local_date"]
        let tail = ["platform", "app_version", "extra"]
        switch self {
        case .reading:
            return head + ["session_id", "material_id", "event_type", "sequence", "active_seconds", "progress", "position",
                           "target_type", "title", "knowledge_base_id"] + tail
        case .feedback:
            return head + ["feedback_type", "reason", "impression_id", "model_info", "feed_position", "item_id", "context"] + tail
        case .exposure:
            return head + ["page_id", "page_instance_id", "item_id", "impression_id", "model_info", "feed_position",
                           "visible_ratio", "dwell_ms"] + tail
        case .observability:
            return head + ["event_name", "session_id", "properties", "prop_keys", "prop_values", "prop_numbers"] + tail
        }
    }
}

extension Event {
    /// Writes the event as one `RowBinary` row of its table, in the order and the types of
    /// `EventFamily.clickHouseColumns` (`ClickHouseSchema`); `localDate` is its local date
    /// (`YYYY-MM-DD`) computed at ingest. The validator bounds what the narrow columns hold:
    /// `tz_minutes` (Int16) -720...840, `active_seconds` (UInt32) 0...3600.
    func writeClickHouseRow(localDate: String, to row: inout RowBinaryWriter) {
        row.string(idempotencyKey)
        row.string(common.userId)
        row.int64(timestampMs)
        row.int16(common.timezoneOffsetMinutes)
        row.string(localDate)
        switch self {
        case .reading(let e):
            row.nullableString(e.clientSessionId)
            row.string(e.materialId)
            row.string(e.kind.rawValue)
            row.nullableInt64(e.sequence)
            row.uint32(e.activeSecondsDelta)
            row.nullableFloat64(e.progress)
            row.nullableString(e.positionJSON)
            row.string(e.targetType.rawValue)
            row.nullableString(e.title)
            row.nullableString(e.knowledgeBaseId)
        case .feedback(let e):
            row.string(e.kind.rawValue)
            row.nullableString(e.reason)
            row.string(e.impressionId)
            row.string(e.modelInfo)
            row.int64(Int64(e.feedPosition))
            row.nullableString(e.itemId)
            row.string(e.contextJSON ?? "{}")
        case .exposure(let e):
            row.nullableString(e.pageId)
            row.string(e.pageInstanceId)
            row.string(e.itemId)
            row.nullableString(e.impressionId)
            row.nullableString(e.modelInfo)
            row.nullableInt64(e.feedPosition.map(Int64.init))
            row.nullableFloat64(e.visibleRatio)
            row.nullableInt64(e.dwellMs)
        case .observability(let e):
            row.string(e.eventName)
            row.string(e.sessionId)
            row.string(e.propertiesJSON)
            let properties = PropertyColumns(json: e.propertiesJSON)
            row.strings(properties.keys)
            row.strings(properties.values)
            row.nullableFloat64s(properties.numbers)
        }
        row.nullableString(common.platform)
        row.nullableString(common.appVersion)
        row.nullableString(common.extraJSON)
    }
}
