-- The users with reading events and the UTC offset of each one's newest reading event (by
-- timestamp, sequence, event id, as learning_last_event.sql), by user: the dashboard's user picker.
SELECT user_id AS userId, tupleElement(maxMerge(last_state), 4) AS timezoneOffsetMinutes
FROM reading_latest
GROUP BY user_id
ORDER BY user_id
