extension TallySchema {
    /// Version 5: `observability_events_name` orders each name and user's events by timestamp
    /// before their properties.
    ///
    /// Ordered by properties, a user's new events went to random places in the user's range:
    /// every commit rewrote pages all over an index as large as the events' properties, more of
    /// them the more was stored. Ordered by time, a later day's events append at the end of
    /// each (name, user) range. The index still holds everything `latency` and `top` read.
    static let v5 = """
    DROP INDEX observability_events_name;
    CREATE INDEX observability_events_name ON observability_events (event_name, user_id, ts_ms, properties, app_version);
    """
}
