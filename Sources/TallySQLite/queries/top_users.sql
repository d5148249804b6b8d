-- Counts of events named :event per userId, most frequent first, then by user, from the
-- counts kept at ingest (top.sql counts by any other field from the events).
-- :event  the event name   :limit  how many rows   :user  one user, or NULL for all
SELECT user_id AS group_key, count
FROM event_user_counts
WHERE event_name = :event AND (:user IS NULL OR user_id = :user)
ORDER BY count DESC, user_id
LIMIT :limit;
