extension TallySchema {
    /// Version 8: `observability_events_name` leads with the local date, and `event_name_days`
    /// lists the dates each event name has.
    ///
    /// Led by (name, user), every load added rows at the end of each name and user's range: a
    /// page per range all over an index as large as the events' properties, more of them the more
    /// was stored. Led by the date, a load writes the index where its own dates are, which for a
    /// day's file is the index's end. `latency` and `top` read the index a date at a time, the
    /// dates taken from `event_name_days`.
    static let v8 = """
    DROP INDEX observability_events_name;
    CREATE INDEX observability_events_name
        ON observability_events (local_date, event_name, user_id, ts_ms, properties, app_version);

    -- The local dates of each observability event name.
    CREATE TABLE event_name_days (
        event_name TEXT NOT NULL,
        local_date TEXT NOT NULL,
        PRIMARY KEY (event_name, local_date)
    ) WITHOUT ROWID;
    INSERT INTO event_name_days (event_name, local_date)
        SELECT DISTINCT event_name, local_date FROM observability_events;
    """
}
