-- Counts of events named :event per value of :by (userId, sessionId, platform, appVersion or a
-- property name), most frequent first, then by value.
-- :event  the event name   :by  what to count by   :limit  how many rows
-- :user   only this user's events, or NULL for all
SELECT CASE :by WHEN 'userId' THEN user_id
                WHEN 'sessionId' THEN session_id
                WHEN 'platform' THEN platform
                WHEN 'appVersion' THEN coalesce(json_extract(properties, '$.appVersion'), app_version)
                ELSE json_extract(properties, '$."' || :by || '"') END AS group_key,
       COUNT(*) AS count
FROM observability_events
WHERE event_name = :event AND (:user IS NULL OR user_id = :user)
GROUP BY group_key
ORDER BY count DESC, group_key IS NULL, group_key
LIMIT :limit;
