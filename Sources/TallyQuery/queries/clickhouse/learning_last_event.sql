-- The newest reading event of a user (or of everyone) by timestamp, sequence, event id: its
-- instant and UTC offset. The offset is the user's zone for "today" when --tz is not given.
-- {user}  the user, or NULL for all users
SELECT ts_ms, tz_minutes
FROM reading_events
WHERE ({user:Nullable(String)} IS NULL OR user_id = ifNull({user:Nullable(String)}, ''))
ORDER BY ts_ms DESC, ifNull(sequence, 0) DESC, event_id DESC
LIMIT 1
