-- Counts of events named :event per value of :by (userId, sessionId, platform, appVersion or a
-- property name), most frequent first, then by value. A number beyond a double's range (1e999)
-- counts by its text as written, so only absent and null values form the null group.
-- :event  the event name   :by  what to count by   :limit  how many rows
-- :user   only this user's events, or NULL for all
-- The events are found a date at a time and the user as a range, as in latency_values.sql.
SELECT CASE :by WHEN 'userId' THEN user_id
                WHEN 'sessionId' THEN session_id
                WHEN 'platform' THEN platform
                WHEN 'appVersion' THEN coalesce(json_extract(properties, '$.appVersion'), app_version)
                ELSE CASE WHEN json_type(properties, '$."' || :by || '"') = 'real'
                               AND abs(json_extract(properties, '$."' || :by || '"')) > 1.7976931348623157e308
                          THEN properties -> ('$."' || :by || '"')
                          ELSE json_extract(properties, '$."' || :by || '"') END END AS group_key,
       COUNT(*) AS count
FROM event_name_days AS d
JOIN observability_events AS e INDEXED BY observability_events_name
  ON e.local_date = d.local_date AND e.event_name = d.event_name
WHERE d.event_name = :event AND e.user_id >= coalesce(:user, '') AND e.user_id <= coalesce(:user, x'')
GROUP BY group_key
ORDER BY count DESC, group_key IS NULL, group_key
LIMIT :limit;
