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
    /// Writes the event as one `TabSeparated` row of its table, in the order of
    /// `EventFamily.clickHouseColumns`; `localDate` is its local date (`YYYY-MM-DD`) computed at ingest.
    func writeClickHouseRow(localDate: String, to row: inout RowWriter) {
        row.text(idempotencyKey)
        row.text(common.userId)
        row.number(timestampMs)
        row.number(Int64(common.timezoneOffsetMinutes))
        row.text(localDate)
        switch self {
        case .reading(let e):
            row.text(e.clientSessionId)
            row.text(e.materialId)
            row.text(e.kind.rawValue)
            row.number(e.sequence)
            row.number(Int64(e.activeSecondsDelta))
            row.number(e.progress)
            row.text(e.positionJSON)
            row.text(e.targetType.rawValue)
            row.text(e.title)
            row.text(e.knowledgeBaseId)
        case .feedback(let e):
            row.text(e.kind.rawValue)
            row.text(e.reason)
            row.text(e.impressionId)
            row.text(e.modelInfo)
            row.number(Int64(e.feedPosition))
            row.text(e.itemId)
            row.text(e.contextJSON ?? "{}")
        case .exposure(let e):
            row.text(e.pageId)
            row.text(e.pageInstanceId)
            row.text(e.itemId)
            row.text(e.impressionId)
            row.text(e.modelInfo)
            row.number(e.feedPosition.map(Int64.init))
            row.number(e.visibleRatio)
            row.number(e.dwellMs)
        case .observability(let e):
            row.text(e.eventName)
            row.text(e.sessionId)
            row.text(e.propertiesJSON)
            let properties = PropertyColumns(json: e.propertiesJSON)
            row.texts(properties.keys)
            row.texts(properties.values)
            row.numbers(properties.numbers)
        }
        row.text(common.platform)
        row.text(common.appVersion)
        row.text(common.extraJSON)
        row.endRow()
    }
}
