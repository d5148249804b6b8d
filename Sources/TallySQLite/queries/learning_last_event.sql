-- The newest reading event of a user (or of everyone): its instant and UTC offset.
-- The offset is the user's zone for "today" when --tz is not given.
-- :user  the user, or NULL for all users (a range of the primary key, as in learning_materials.sql)
SELECT last_ts, tz_minutes
FROM reading_user_state
WHERE user_id >= coalesce(:user, '') AND user_id <= coalesce(:user, x'')
ORDER BY last_ts DESC, last_seq DESC, last_key DESC
LIMIT 1;
