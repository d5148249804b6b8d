import TallyEvents

extension Event {
    /// The table this event's family is stored in.
    var clickHouseTable: String {
        switch self {
        case .reading: "reading_events"
        case .feedback: "feedback_events"
        case .exposure: "exposure_events"
        case .observability: "observability_events"
        }
    }

    /// The event as one JSONEachRow line of its table (`ClickHouseSchema`), newline included;
    /// `localDate` is its local date (`YYYY-MM-DD`) computed at ingest.
    func clickHouseRow(localDate: String) -> String {
        var row = RowWriter()
        row.text(family == .feedback ? "id" : "event_id", idempotencyKey)
        row.text("user_id", common.userId)
        row.number("ts_ms", timestampMs)
        row.number("tz_minutes", Int64(common.timezoneOffsetMinutes))
        row.text("local_date", localDate)
        switch self {
        case .reading(let e):
            row.text("session_id", e.clientSessionId)
            row.text("material_id", e.materialId)
            row.text("event_type", e.kind.rawValue)
            row.number("sequence", e.sequence)
            row.number("active_seconds", Int64(e.activeSecondsDelta))
            row.number("progress", e.progress)
            row.text("position", e.positionJSON)
            row.text("target_type", e.targetType.rawValue)
            row.text("title", e.title)
            row.text("knowledge_base_id", e.knowledgeBaseId)
        case .feedback(let e):
            row.text("feedback_type", e.kind.rawValue)
            row.text("reason", e.reason)
            row.text("impression_id", e.impressionId)
            row.text("model_info", e.modelInfo)
            row.number("feed_position", Int64(e.feedPosition))
            row.text("item_id", e.itemId)
            row.text("context", e.contextJSON ?? "{}")
        case .exposure(let e):
            row.text("page_id", e.pageId)
            row.text("page_instance_id", e.pageInstanceId)
            row.text("item_id", e.itemId)
            row.text("impression_id", e.impressionId)
            row.text("model_info", e.modelInfo)
            row.number("feed_position", e.feedPosition.map(Int64.init))
            row.number("visible_ratio", e.visibleRatio)
            row.number("dwell_ms", e.dwellMs)
        case .observability(let e):
            row.text("event_name", e.eventName)
            row.text("session_id", e.sessionId)
            row.text("properties", e.propertiesJSON)
            let properties = PropertyColumns(json: e.propertiesJSON)
            row.raw("prop_keys", "[" + properties.keys.map(JSONText.quote).joined(separator: ",") + "]")
            row.raw("prop_values", "[" + properties.values.map(JSONText.quote).joined(separator: ",") + "]")
            row.raw("prop_numbers", "[" + properties.numbers.map { $0.map(JSONText.number) ?? "null" }.joined(separator: ",") + "]")
        }
        row.text("platform", common.platform)
        row.text("app_version", common.appVersion)
        row.text("extra", common.extraJSON)
        return row.finish()
    }
}
