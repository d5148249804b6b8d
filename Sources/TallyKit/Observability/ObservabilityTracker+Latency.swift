import TallyEvents

extension ObservabilityTracker {
    /// Records `view_loaded` with `view_name` and `load_duration_ms`, the event and field the
    /// latency report reads by default (`report latency --event view_loaded --field load_duration_ms`).
    @discardableResult
    public func trackViewLoaded(_ viewName: String, loadDurationMs: Int64,
                                properties: [String: JSONValue] = [:]) -> EnqueueReceipt? {
        var properties = properties
        properties["view_name"] = .string(viewName)
        properties["load_duration_ms"] = .int(max(0, loadDurationMs))
        return track("view_loaded", properties)
    }

    /// Records `api_request_failed` with `path`, `status` (0 when no answer came) and
    /// `duration_ms`, which `report top --event api_request_failed --by userId` counts.
    @discardableResult
    public func trackRequestFailed(path: String, status: Int, durationMs: Int64,
                                   properties: [String: JSONValue] = [:]) -> EnqueueReceipt? {
        var properties = properties
        properties["path"] = .string(path)
        properties["status"] = .int(Int64(status))
        properties["duration_ms"] = .int(max(0, durationMs))
        return track("api_request_failed", properties)
    }

    /// Records `name` with `properties[field]` set to the milliseconds elapsed since `startMs`
    /// (an instant read from the same clock earlier; a negative span counts as 0).
    ///
    /// `let start = clock.nowMs()` … `tracker.trackDuration("search_finished", field: "duration_ms", since: start)`.
    @discardableResult
    public func trackDuration(_ name: String, field: String, since startMs: Int64,
                              properties: [String: JSONValue] = [:]) -> EnqueueReceipt? {
        var properties = properties
        properties[field] = .int(max(0, clock.nowMs() - startMs))
        return track(name, properties)
    }
}
