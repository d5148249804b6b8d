-- The numeric values of properties.<field> of events named :event, per value of properties.<by>
-- (or the event's appVersion when it has no such property and :by names appVersion), sorted.
-- A number beyond a double's range (1e999) is not a number here: left out as a value, and
-- grouped by its text as written.
-- :event  the event name   :field  the measured property   :by  the grouping property
-- :user   only this user's events, or NULL for all
SELECT group_key, value FROM (
    SELECT coalesce(CASE WHEN json_type(properties, '$."' || :by || '"') = 'real'
                              AND abs(json_extract(properties, '$."' || :by || '"')) > 1.7976931348623157e308
                         THEN properties -> ('$."' || :by || '"')
                         ELSE json_extract(properties, '$."' || :by || '"') END,
                    CASE WHEN :by IN ('appVersion', 'app_version') THEN app_version END) AS group_key,
           json_extract(properties, '$."' || :field || '"') AS value
    FROM observability_events
    WHERE event_name = :event AND (:user IS NULL OR user_id = :user)
)
WHERE typeof(value) IN ('integer', 'real') AND abs(value) <= 1.7976931348623157e308
ORDER BY group_key IS NULL, group_key, value;
