-- One event's group and value for `latency`, as SQLite's JSON functions read them: the numeric
-- value of properties.<field>, and the value of properties.<by> (or the event's app version
-- when it has no such property and :by names appVersion); no row when the value is not a number.
-- SQLiteReports.latency asks this of each event of latency_values.sql that LatencyScanner leaves
-- to SQLite (escapes, repeated keys, fractions and exponents, booleans, nested values, text
-- that is not JSON).
-- A number beyond a double's range (1e999) is not a number here: left out as a value, and
-- grouped by its text as written.
-- :properties  the event's properties (JSON text)   :app_version  the event's app_version
-- :field  the measured property   :by  the grouping property
SELECT group_key, value FROM (
    SELECT coalesce(CASE WHEN json_type(:properties, '$."' || :by || '"') = 'real'
                              AND abs(json_extract(:properties, '$."' || :by || '"')) > 1.7976931348623157e308
                         THEN :properties -> ('$."' || :by || '"')
                         ELSE json_extract(:properties, '$."' || :by || '"') END,
                    CASE WHEN :by IN ('appVersion', 'app_version') THEN :app_version END) AS group_key,
           json_extract(:properties, '$."' || :field || '"') AS value
)
WHERE typeof(value) IN ('integer', 'real') AND abs(value) <= 1.7976931348623157e308;
