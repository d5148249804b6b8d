-- The newest reading event of a user (or of everyone): its instant and UTC offset.
-- The offset is the user's zone for "today" when --tz is not given.
-- :user  the user, or NULL for all users
SELECT last_ts, tz_minutes
FROM reading_user_state
WHERE :user IS NULL OR user_id = :user
ORDER BY last_ts DESC, last_seq DESC, last_key DESC
LIMIT 1;
