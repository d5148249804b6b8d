-- The model comparison's n and d (metrics.md): per model version, feed position group and user,
-- the exposures and dislikes dislike_rate.sql counts, as rows that the comparison adds up per
-- group and user (a user whose exposures add up to 0 is left out there), in no order: the
-- per-user counters kept at ingest as they are stored (dislike_user_groups, whose parts may
-- still hold several rows of one key; one user's rows through its primary key). Exact in the
-- groups the counters keep, and in coarser ones while no impression appears in more than one
-- group (rollup_counter 'impressions_in_several_groups' = 0); otherwise dislike_rate_scan.sql
-- answers with {by_user}.
-- {user}          only this user's impressions, or NULL for all
-- {by_position}, {bucket_lows}, {bucket_highs}  as in dislike_rate.sql
SELECT if(model_null = 1, NULL, toNullable(model_info)) AS model_info,
       if({by_position:UInt8} = 0, NULL,
          if(empty({bucket_lows:Array(Int64)}), if(position_null = 1, NULL, toNullable(feed_position)),
             nullIf(toInt64(arrayFirstIndex((low, high) -> if(position_null = 1, -1, feed_position) >= low
                                               AND (high < 0 OR if(position_null = 1, -1, feed_position) <= high),
                                            {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS feed_position,
       exposed_count + feedback_only_count AS exposures,
       dislike_count AS dislikes,
       user_id
FROM dislike_user_groups
WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
