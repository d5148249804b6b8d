-- Dislike rate per group of model version and feed position (metrics.md), from the events.
-- A (user, impression) counts as exposed in a group with an exposure event of that group, and
-- also when its final (newest by timestamp, then id) feedback event is in the group without
-- any exposure there. Exact for any grouping, on one server or through a Distributed table;
-- dislike_rate.sql reads the same from the counters kept at ingest.
-- {user}          only this user's impressions, or NULL for all
-- {by_model}      1 to group by modelInfo, 0 not to
-- {by_position}   1 to group by feedPosition, 0 not to
-- {bucket_lows}, {bucket_highs}  [] for one group per position, else the buckets' bounds
--                 (high -1 = open): feed_position is then the bucket's 1-based number, NULL
--                 for positions outside every bucket
-- {by_user}       1 to split each group by user_id (the model comparison's n and d per user), 0 not to
-- {from}, {to}    keep only the events of local dates from...to, NULL for no bound
-- {platform}, {app_version}  keep only the events with this platform / appVersion, NULL for all
SELECT model_group AS model_info,
       position_group AS feed_position,
       count() AS exposures,
       countIf(reaction = 'like') AS likes,
       countIf(reaction = 'dislike') AS dislikes,
       countIf(exposed = 0) AS feedback_without_exposure,
       if({by_user:UInt8} = 1, toNullable(user_id), NULL) AS user_group
FROM (
    SELECT if({by_model:UInt8} = 1, model_info, NULL) AS model_group,
           if({by_position:UInt8} = 0, NULL,
              if(empty({bucket_lows:Array(Int64)}), feed_position,
                 nullIf(toInt64(arrayFirstIndex((low, high) -> ifNull(feed_position, -1) >= low
                                                   AND (high < 0 OR ifNull(feed_position, -1) <= high),
                                                {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS position_group,
           user_id, impression_id,
           max(exposed) AS exposed,
           max(reaction) AS reaction
    FROM (
        -- Every exposure event, without DISTINCT: the GROUP BY below keeps one row per impression
        -- and group, and a DISTINCT before it would hash every event twice.
        SELECT user_id, assumeNotNull(impression_id) AS impression_id, model_info, feed_position,
               toUInt8(1) AS exposed, '' AS reaction
        FROM exposure_events
        WHERE isNotNull(impression_id)
          AND user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
          AND local_date >= ifNull({from:Nullable(Date)}, '0001-01-01')
          AND local_date <= ifNull({to:Nullable(Date)}, '9999-12-31')
          AND (isNull({platform:Nullable(String)}) OR platform = {platform:Nullable(String)})
          AND (isNull({app_version:Nullable(String)}) OR app_version = {app_version:Nullable(String)})
        UNION ALL
        SELECT user_id, impression_id,
               toNullable(tupleElement(final, 1)), toNullable(tupleElement(final, 2)), toUInt8(0), tupleElement(final, 3)
        FROM (
            SELECT user_id, impression_id,
                   argMax(tuple(model_info, feed_position, feedback_type), tuple(ts_ms, id)) AS final
            FROM feedback_events
            WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
              AND local_date >= ifNull({from:Nullable(Date)}, '0001-01-01')
              AND local_date <= ifNull({to:Nullable(Date)}, '9999-12-31')
              AND (isNull({platform:Nullable(String)}) OR platform = {platform:Nullable(String)})
              AND (isNull({app_version:Nullable(String)}) OR app_version = {app_version:Nullable(String)})
            GROUP BY user_id, impression_id
        )
    )
    GROUP BY model_group, position_group, user_id, impression_id
)
GROUP BY model_group, position_group, user_group
ORDER BY isNull(model_group), model_group, isNull(position_group), position_group
