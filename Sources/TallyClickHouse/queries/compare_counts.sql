-- The model comparison's n and d (metrics.md): per model version, feed position group and user,
-- the exposures and dislikes dislike_rate.sql counts, from the per-user counters kept at ingest
-- (dislike_user_groups; one user's rows through its primary key). Exact in the groups the counters
-- keep, and in coarser ones while no impression appears in more than one group (rollup_counter
-- 'impressions_in_several_groups' = 0); otherwise dislike_rate_scan.sql answers with {by_user}.
-- The rows come in no order: the comparison orders its groups.
-- {user}          only this user's impressions, or NULL for all
-- {by_position}, {bucket_lows}, {bucket_highs}  as in dislike_rate.sql
SELECT model_group AS model_info,
       position_group AS feed_position,
       sum(exposed_count + feedback_only_count) AS exposures,
       sum(dislike_count) AS dislikes,
       user_id
FROM (
    SELECT if(model_null = 1, NULL, toNullable(model_info)) AS model_group,
           if({by_position:UInt8} = 0, NULL,
              if(empty({bucket_lows:Array(Int64)}), if(position_null = 1, NULL, toNullable(feed_position)),
                 nullIf(toInt64(arrayFirstIndex((low, high) -> if(position_null = 1, -1, feed_position) >= low
                                                   AND (high < 0 OR if(position_null = 1, -1, feed_position) <= high),
                                                {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS position_group,
           exposed_count, feedback_only_count, dislike_count, user_id
    FROM dislike_user_groups
    WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
)
GROUP BY model_group, position_group, user_id
HAVING exposures > 0
