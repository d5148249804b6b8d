-- The numeric values of properties.<field> of events named :event, per value of properties.<by>
-- (or the event's appVersion when it has no such property and :by names appVersion), in no
-- order: SQLiteReports.latency groups and sorts them (a sort of every value here cost more than
-- the rest of the report).
-- A number beyond a double's range (1e999) is not a number here: left out as a value, and
-- grouped by its text as written.
-- :event  the event name   :field  the measured property   :by  the grouping property
-- :user   only this user's events, or NULL for all
-- The index is read a date at a time (the dates of :event from event_name_days); the user is a
-- range on it so that one user's rows are sought, not filtered: with :user NULL it runs from ''
-- to the empty blob, which sorts after every text.
SELECT group_key, value FROM (
    SELECT coalesce(CASE WHEN json_type(properties, '$."' || :by || '"') = 'real'
                              AND abs(json_extract(properties, '$."' || :by || '"')) > 1.7976931348623157e308
                         THEN properties -> ('$."' || :by || '"')
                         ELSE json_extract(properties, '$."' || :by || '"') END,
                    CASE WHEN :by IN ('appVersion', 'app_version') THEN app_version END) AS group_key,
           json_extract(properties, '$."' || :field || '"') AS value
    FROM event_name_days AS d
    JOIN observability_events AS e INDEXED BY observability_events_name
      ON e.local_date = d.local_date AND e.event_name = d.event_name
    WHERE d.event_name = :event AND e.user_id >= coalesce(:user, '') AND e.user_id <= coalesce(:user, x'')
)
WHERE typeof(value) IN ('integer', 'real') AND abs(value) <= 1.7976931348623157e308;
