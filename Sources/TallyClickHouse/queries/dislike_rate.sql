-- Dislike rate per group of model version and feed position (metrics.md), from the per-group
-- counters kept at ingest (dislike_groups, or dislike_user_groups for one user, read through its
-- primary key). Summing them into coarser groups (one key, or position buckets) is exact while
-- no impression appears in more than one group (rollup_counter 'impressions_in_several_groups'
-- = 0); otherwise dislike_rate_scan.sql answers.
-- {user}          only this user's impressions, or NULL for all
-- {by_model}      1 to group by modelInfo, 0 not to
-- {by_position}   1 to group by feedPosition, 0 not to
-- {bucket_lows}, {bucket_highs}  [] for one group per position, else the buckets' bounds
--                 (high -1 = open): feed_position is then the bucket's 1-based number, NULL
--                 for positions outside every bucket
SELECT model_group AS model_info,
       position_group AS feed_position,
       sum(exposed_count + feedback_only_count) AS exposures,
       sum(like_count) AS likes,
       sum(dislike_count) AS dislikes,
       sum(feedback_only_count) AS feedback_without_exposure
FROM (
    SELECT if({by_model:UInt8} = 1, if(model_null = 1, NULL, toNullable(model_info)), NULL) AS model_group,
           if({by_position:UInt8} = 0, NULL,
              if(empty({bucket_lows:Array(Int64)}), if(position_null = 1, NULL, toNullable(feed_position)),
                 nullIf(toInt64(arrayFirstIndex((low, high) -> if(position_null = 1, -1, feed_position) >= low
                                                   AND (high < 0 OR if(position_null = 1, -1, feed_position) <= high),
                                                {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS position_group,
           exposed_count, feedback_only_count, like_count, dislike_count
    FROM (
        SELECT model_info, model_null, feed_position, position_null, exposed_count, feedback_only_count, like_count, dislike_count
        FROM dislike_groups
        WHERE isNull({user:Nullable(String)})
        UNION ALL
        SELECT model_info, model_null, feed_position, position_null, exposed_count, feedback_only_count, like_count, dislike_count
        FROM dislike_user_groups
        WHERE user_id = ifNull({user:Nullable(String)}, '') AND isNotNull({user:Nullable(String)})
    )
)
GROUP BY model_group, position_group
HAVING exposures > 0
ORDER BY isNull(model_group), model_group, isNull(position_group), position_group
