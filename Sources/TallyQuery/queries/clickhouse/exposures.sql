-- Exposure counts: one per (pageInstanceId, itemId) at its earliest event (by timestamp, then
-- event id); the pair's other events are duplicateExposures in the group of that earliest event.
-- Read from the counts and member sets kept at ingest (exposure_groups, exposure_members;
-- exposure_pairs holds the pairs themselves). group_key is text (a date, page, item, model, or
-- position digits); NULL groups come last.
-- {by}    day | page | item | model | position
SELECT if(group_null = 1, NULL, toNullable(group_value)) AS group_key,
       exposures,
       unique_items,
       unique_users,
       duplicate_exposures
FROM (
    SELECT group_value, group_null, sum(exposure_count) AS exposures, sum(duplicate_count) AS duplicate_exposures
    FROM exposure_groups
    WHERE dimension = {by:String}
    GROUP BY group_value, group_null
    HAVING exposures > 0
)
ANY LEFT JOIN (
    SELECT group_value, group_null, uniqExactMerge(items) AS unique_items, uniqExactMerge(users) AS unique_users
    FROM exposure_members
    WHERE dimension = {by:String}
    GROUP BY group_value, group_null
) USING (group_value, group_null)
ORDER BY isNull(group_key), if({by:String} = 'position', toInt64OrZero(ifNull(group_key, '')), 0), group_key
