-- Exposure counts: one per (pageInstanceId, itemId) at its earliest event (by timestamp, then
-- event id); the pair's other events are duplicateExposures in the group of that earliest event.
-- Computed from the events (exposures.sql reads the counts kept at ingest).
-- group_key is text (a date, page, item, model, or position digits); NULL groups come last.
-- {by}    day | page | item | model | position
-- {user}  only this user's exposures, or NULL for all
-- {from}, {to}, {platform}, {app_version}  keep only these events, as in dislike_rate_scan.sql
--         (the earliest event of a pair is then the earliest of those kept)
SELECT multiIf({by:String} = 'day', toNullable(toString(tupleElement(first, 1))),
               {by:String} = 'page', if(tupleElement(first, 3), NULL, tupleElement(first, 2)),
               {by:String} = 'item', toNullable(item_id),
               {by:String} = 'model', if(tupleElement(first, 5), NULL, tupleElement(first, 4)),
               if(tupleElement(first, 7), NULL, toString(tupleElement(first, 6)))) AS group_key,
       count() AS exposures,
       uniqExact(item_id) AS unique_items,
       uniqExact(tupleElement(first, 8)) AS unique_users,
       sum(events - 1) AS duplicate_exposures
FROM (
    SELECT page_instance_id, item_id, count() AS events,
           -- No Nullable inside the tuple: 18.16 cannot send such an aggregate state between shards.
           argMin(tuple(local_date, ifNull(page_id, ''), isNull(page_id), ifNull(model_info, ''), isNull(model_info),
                        ifNull(feed_position, 0), isNull(feed_position), user_id), tuple(ts_ms, event_id)) AS first
    FROM exposure_events
    WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
      AND local_date >= ifNull({from:Nullable(Date)}, '0001-01-01')
      AND local_date <= ifNull({to:Nullable(Date)}, '9999-12-31')
      AND (isNull({platform:Nullable(String)}) OR platform = {platform:Nullable(String)})
      AND (isNull({app_version:Nullable(String)}) OR app_version = {app_version:Nullable(String)})
    GROUP BY page_instance_id, item_id
)
GROUP BY group_key
ORDER BY isNull(group_key), if({by:String} = 'position', toInt64OrZero(ifNull(group_key, '')), 0), group_key
