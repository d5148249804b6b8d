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

extension RowBinaryWriter {
    /// Writes the columns every event table starts with: the key, the user, the instant, the
    /// offset and `localDate`, the event's local date (`YYYY-MM-DD`) computed at ingest.
    mutating func eventHead(key: String, common: EventCommon, timestampMs: Int64, localDate: String) {
        string(key)
        string(common.userId)
        int64(timestampMs)
        int16(common.timezoneOffsetMinutes)
        string(localDate)
    }

    /// Writes the columns every event table ends with.
    mutating func eventTail(_ common: EventCommon) {
        nullableString(common.platform)
        nullableString(common.appVersion)
        nullableString(common.extraJSON)
    }
}

// Each family writes its event as one `RowBinary` row of its table, in the order and the types
// of `EventFamily.clickHouseColumns` (`ClickHouseSchema`); `localDate` is its local date computed
// at ingest. The validator bounds what the narrow columns hold: `tz_minutes` (Int16) -720...840,
// `active_seconds` (UInt32) 0...3600. A family's own type writes it, not `Event`: reading a field
// through the enum copies the whole event each time.

extension ReadingEvent {
    /// Writes the event as a row of `reading_events`.
    func writeClickHouseRow(localDate: String, to row: inout RowBinaryWriter) {
        row.eventHead(key: eventId, common: common, timestampMs: clientTimestampMs, localDate: localDate)
        row.nullableString(clientSessionId)
        row.string(materialId)
        row.string(kind.rawValue)
        row.nullableInt64(sequence)
        row.uint32(activeSecondsDelta)
        row.nullableFloat64(progress)
        row.nullableString(positionJSON)
        row.string(targetType.rawValue)
        row.nullableString(title)
        row.nullableString(knowledgeBaseId)
        row.eventTail(common)
    }
}

extension FeedbackEvent {
    /// Writes the event as a row of `feedback_events`.
    func writeClickHouseRow(localDate: String, to row: inout RowBinaryWriter) {
        row.eventHead(key: id, common: common, timestampMs: timestampMs, localDate: localDate)
        row.string(kind.rawValue)
        row.nullableString(reason)
        row.string(impressionId)
        row.string(modelInfo)
        row.int64(Int64(feedPosition))
        row.nullableString(itemId)
        row.string(contextJSON ?? "{}")
        row.eventTail(common)
    }
}

extension ExposureEvent {
    /// Writes the event as a row of `exposure_events`.
    func writeClickHouseRow(localDate: String, to row: inout RowBinaryWriter) {
        row.eventHead(key: eventId, common: common, timestampMs: clientTimestampMs, localDate: localDate)
        row.nullableString(pageId)
        row.string(pageInstanceId)
        row.string(itemId)
        row.nullableString(impressionId)
        row.nullableString(modelInfo)
        row.nullableInt64(feedPosition.map(Int64.init))
        row.nullableFloat64(visibleRatio)
        row.nullableInt64(dwellMs)
        row.eventTail(common)
    }
}

extension ObservabilityEvent {
    /// Writes the event as a row of `observability_events`.
    func writeClickHouseRow(localDate: String, to row: inout RowBinaryWriter) {
        row.eventHead(key: eventId, common: common, timestampMs: timestampMs, localDate: localDate)
        row.string(eventName)
        row.string(sessionId)
        row.string(propertiesJSON)
        let properties = PropertyColumns(json: propertiesJSON)
        row.strings(properties.keys)
        row.strings(properties.values)
        row.nullableFloat64s(properties.numbers)
        row.eventTail(common)
    }
}
