-- The numeric values of properties.<field> of events named :event, per value of properties.<by>
-- (or the event's appVersion when it has no such property and :by names appVersion), sorted.
-- :event  the event name   :field  the measured property   :by  the grouping property
-- :user   only this user's events, or NULL for all
SELECT group_key, value FROM (
    SELECT coalesce(json_extract(properties, '$."' || :by || '"'),
                    CASE WHEN :by IN ('appVersion', 'app_version') THEN app_version END) AS group_key,
           json_extract(properties, '$."' || :field || '"') AS value
    FROM observability_events
    WHERE event_name = :event AND (:user IS NULL OR user_id = :user)
)
WHERE typeof(value) IN ('integer', 'real')
ORDER BY group_key IS NULL, group_key, value;
