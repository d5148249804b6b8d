-- Exact nearest-rank percentiles (sorted x[0..n-1], pK = x[ceil(K/100 n) - 1]) of
-- properties.<field> of events named {event}, where it is a number, per value of
-- properties.<by> (or the event's appVersion when it has no such property and {by} names
-- appVersion). A numeric group value is in key_number, any other in key_text; numbers sort
-- first, then text, then the null group.
-- A number is one group whatever its JSON text: `+ 0` makes a -0 stored by older versions 0.
-- {event}  the event name   {field}  the measured property   {by}  the grouping property
-- {user}   only this user's events, or NULL for all
SELECT key_number, key_text, n AS count,
       xs[toUInt64(greatest(1, least(toFloat64(n), ceil(50 / 100 * n))))] AS p50,
       xs[toUInt64(greatest(1, least(toFloat64(n), ceil(90 / 100 * n))))] AS p90,
       xs[toUInt64(greatest(1, least(toFloat64(n), ceil(99 / 100 * n))))] AS p99,
       xs[n] AS max
FROM (
    SELECT key_number, key_text, count() AS n, arraySort(groupArray(assumeNotNull(value))) AS xs
    FROM (
        SELECT prop_numbers[indexOf(prop_keys, {field:String})] AS value,
               indexOf(prop_keys, {by:String}) AS by_index,
               if(by_index > 0, prop_numbers[by_index] + 0, NULL) AS key_number,
               if(isNotNull(key_number), NULL,
                  if(by_index > 0, toNullable(prop_values[by_index]),
                     if({by:String} IN ('appVersion', 'app_version'), app_version, NULL))) AS key_text
        FROM observability_events
        WHERE event_name = {event:String}
          AND user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
    )
    WHERE isNotNull(value)
    GROUP BY key_number, key_text
)
ORDER BY isNull(key_number) AND isNull(key_text), isNull(key_number), key_number, key_text
