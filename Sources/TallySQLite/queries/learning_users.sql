-- The users with reading events and the UTC offset of each one's newest reading event (the
-- zone of "today" when --tz is not given), by user: the dashboard's user picker.
SELECT user_id AS userId, tz_minutes AS timezoneOffsetMinutes
FROM reading_user_state
ORDER BY user_id;
