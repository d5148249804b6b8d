-- The users with reading events and the UTC offset of each one's newest reading event (by
-- timestamp, sequence, event id, as learning_last_event.sql), by user: the dashboard's user picker.
SELECT user_id AS userId, argMax(tz_minutes, (ts_ms, ifNull(sequence, 0), event_id)) AS timezoneOffsetMinutes
FROM reading_events
GROUP BY user_id
ORDER BY user_id
