-- Exposure counts: one per (pageInstanceId, itemId) at its earliest event (by timestamp, then
-- event id); the pair's other events are duplicateExposures in the group of that earliest event.
-- group_key is text (a date, page, item, model, or position digits); NULL groups come last.
-- {by}    day | page | item | model | position
-- {user}  only this user's exposures, or NULL for all
SELECT multiIf({by:String} = 'day', toNullable(toString(tupleElement(first, 1))),
               {by:String} = 'page', tupleElement(first, 2),
               {by:String} = 'item', toNullable(item_id),
               {by:String} = 'model', tupleElement(first, 3),
               toString(tupleElement(first, 4))) AS group_key,
       count() AS exposures,
       uniqExact(item_id) AS unique_items,
       uniqExact(tupleElement(first, 5)) AS unique_users,
       sum(events - 1) AS duplicate_exposures
FROM (
    SELECT page_instance_id, item_id, count() AS events,
           argMin(tuple(local_date, page_id, model_info, feed_position, user_id), tuple(ts_ms, event_id)) AS first
    FROM exposure_events
    WHERE ({user:Nullable(String)} IS NULL OR user_id = ifNull({user:Nullable(String)}, ''))
    GROUP BY page_instance_id, item_id
)
GROUP BY group_key
ORDER BY isNull(group_key), if({by:String} = 'position', toInt64OrZero(ifNull(group_key, '')), 0), group_key
