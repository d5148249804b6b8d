-- Exposure counts: one per (pageInstanceId, itemId) at its earliest event (by timestamp, then
-- event id); the pair's other events are duplicateExposures in the group of that earliest event.
-- Read from the counts and member sets kept at ingest (exposure_groups, exposure_members;
-- exposure_pairs holds the pairs themselves), or for one user from those kept per user of the
-- pairs' first exposures (exposure_user_groups, exposure_user_members: a user's group has one
-- user, and by item one item), which are the user's own events' answer while no pair has events
-- of several users (rollup_counter 'pairs_of_several_users' = 0; else exposures_scan.sql).
-- group_key is text (a date, page, item, model, or position digits); NULL groups come last.
-- The joined subqueries are named: current releases refuse a JOIN of unnamed ones.
-- {by}    day | page | item | model | position
-- {user}  only this user's exposures, or NULL for all
SELECT if(group_null = 1, NULL, toNullable(group_value)) AS group_key,
       exposures,
       if(isNotNull({user:Nullable(String)}) AND {by:String} = 'item', toUInt64(1), unique_items) AS unique_items,
       if(isNotNull({user:Nullable(String)}), toUInt64(1), unique_users) AS unique_users,
       duplicate_exposures
FROM (
    SELECT group_value, group_null, sum(exposure_count) AS exposures, sum(duplicate_count) AS duplicate_exposures
    FROM (
        SELECT group_value, group_null, exposure_count, duplicate_count FROM exposure_groups
        WHERE dimension = {by:String} AND isNull({user:Nullable(String)})
        UNION ALL
        SELECT group_value, group_null, exposure_count, duplicate_count FROM exposure_user_groups
        WHERE user_id = ifNull({user:Nullable(String)}, '') AND dimension = {by:String} AND isNotNull({user:Nullable(String)})
    )
    GROUP BY group_value, group_null
    HAVING exposures > 0
) AS totals
ANY LEFT JOIN (
    SELECT group_value, group_null, uniqExactMerge(items) AS unique_items, uniqExactMerge(users) AS unique_users
    FROM exposure_members
    WHERE dimension = {by:String} AND isNull({user:Nullable(String)})
    GROUP BY group_value, group_null
    UNION ALL
    SELECT group_value, group_null, uniqExactMerge(items), toUInt64(1)
    FROM exposure_user_members
    WHERE user_id = ifNull({user:Nullable(String)}, '') AND dimension = {by:String} AND isNotNull({user:Nullable(String)})
    GROUP BY group_value, group_null
) AS members USING (group_value, group_null)
ORDER BY isNull(group_key), if({by:String} = 'position', toInt64OrZero(ifNull(group_key, '')), 0), group_key
