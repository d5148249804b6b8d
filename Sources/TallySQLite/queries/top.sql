-- Counts of events named :event per value of :by (userId, sessionId, platform, appVersion or a
-- property name), most frequent first, then by value. A number beyond a double's range (1e999)
-- counts by its text as written, so only absent and null values form the null group.
-- :event  the event name   :by  what to count by   :limit  how many rows
-- :user   only this user's events, or NULL for all
SELECT CASE :by WHEN 'userId' THEN user_id
                WHEN 'sessionId' THEN session_id
                WHEN 'platform' THEN platform
                WHEN 'appVersion' THEN coalesce(json_extract(properties, '$.appVersion'), app_version)
                ELSE CASE WHEN json_type(properties, '$."' || :by || '"') = 'real'
                               AND abs(json_extract(properties, '$."' || :by || '"')) > 1.7976931348623157e308
                          THEN properties -> ('$."' || :by || '"')
                          ELSE json_extract(properties, '$."' || :by || '"') END END AS group_key,
       COUNT(*) AS count
FROM observability_events
WHERE event_name = :event AND (:user IS NULL OR user_id = :user)
GROUP BY group_key
ORDER BY count DESC, group_key IS NULL, group_key
LIMIT :limit;
