-- Exposure counts: one per (pageInstanceId, itemId) at its earliest event (by timestamp, then
-- event id); the pair's other events are duplicateExposures in the group of that earliest event.
-- Computed from the events (exposures.sql reads the counts kept at ingest).
-- group_key is text (a date, page, item, model, or position digits); NULL groups come last.
-- {by}    day | page | item | model | position
-- {user}  only this user's exposures, or NULL for all
-- {from}, {to}, {platform}, {app_version}  keep only these events, as in dislike_rate_scan.sql
--         (the earliest event of a pair is then the earliest of those kept)
-- A pair's earliest event is the argMin of one text per event, first_key: its timestamp as 8
-- bytes that sort as the numbers do (ts_ms + 2^62, big-endian: the validator keeps timestamps
-- within the years 0000-9999, so the first byte is never 0 and reinterpretAsString keeps all
-- 8), then its id. Of that event it keeps one text, first: the length of the event's group in
-- the {by} dimension, ':', the group ('=' and the value, or '' when missing), then its user.
-- (A tuple (ts_ms, event_id) orders alike, but ClickHouse compares tuples through generic
-- values: at 10M events an argMin by one took twice as long.)
SELECT multiIf({by:String} = 'item', toNullable(pair_item),
               startsWith(first_group, '='), toNullable(substring(first_group, 2)), NULL) AS group_key,
       count() AS exposures,
       uniqExact(pair_item) AS unique_items,
       uniqExact(first_user) AS unique_users,
       sum(events - 1) AS duplicate_exposures
FROM (
    SELECT pair_item, events, position(first, ':') AS colon, toUInt64(substring(first, 1, colon - 1)) AS group_length,
           substring(first, colon + 1, group_length) AS first_group, substring(first, colon + 1 + group_length) AS first_user
    FROM (
        SELECT item_id AS pair_item, count() AS events, argMin(concat(toString(length(event_group)), ':', event_group, user_id), first_key) AS first
        FROM (
            SELECT page_instance_id, item_id, user_id,
                   multiIf({by:String} = 'day', concat('=', local_date),
                           {by:String} = 'page', if(isNull(page_id), '', concat('=', assumeNotNull(page_id))),
                           {by:String} = 'model', if(isNull(model_info), '', concat('=', assumeNotNull(model_info))),
                           {by:String} = 'position', if(isNull(feed_position), '', concat('=', toString(assumeNotNull(feed_position)))),
                           '') AS event_group,
                   concat(reverse(reinterpretAsString(toUInt64(ts_ms + 4611686018427387904))), event_id) AS first_key
            FROM exposure_events
            WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
              AND local_date >= ifNull({from:Nullable(Date)}, '0001-01-01')
              AND local_date <= ifNull({to:Nullable(Date)}, '9999-12-31')
              AND (isNull({platform:Nullable(String)}) OR platform = {platform:Nullable(String)})
              AND (isNull({app_version:Nullable(String)}) OR app_version = {app_version:Nullable(String)})
        )
        GROUP BY page_instance_id, item_id
    )
)
GROUP BY group_key
ORDER BY isNull(group_key), if({by:String} = 'position', toInt64OrZero(ifNull(group_key, '')), 0), group_key
