-- The newest reading event of a user (or of everyone) by timestamp, sequence, event id: its
-- instant and UTC offset. The offset is the user's zone for "today" when --tz is not given.
-- Read from the rollup of each user's newest event (reading_latest).
-- {user}  the user, or NULL for all users
SELECT tupleElement(last, 1) AS ts_ms, tupleElement(last, 4) AS tz_minutes
FROM (
    SELECT maxMerge(last_state) AS last
    FROM reading_latest
    WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
    GROUP BY user_id
)
ORDER BY last DESC
LIMIT 1
