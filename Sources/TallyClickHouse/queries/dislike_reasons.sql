-- How often each reason was given for a final dislike, per group (the group keys of
-- dislike_rate.sql), most frequent first, then by reason; from the counts kept at ingest
-- (dislike_reason_counts, or dislike_user_reason_counts for one user).
-- {user}, {by_model}, {by_position}, {bucket_lows}, {bucket_highs}  as in dislike_rate.sql
SELECT if({by_model:UInt8} = 1, toNullable(model_info), NULL) AS model_group,
       if({by_position:UInt8} = 0, NULL,
          if(empty({bucket_lows:Array(Int64)}), toNullable(feed_position),
             nullIf(toInt64(arrayFirstIndex((low, high) -> feed_position >= low AND (high < 0 OR feed_position <= high),
                                            {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS position_group,
       reason,
       sum(reason_count) AS count
FROM (
    SELECT model_info, feed_position, reason, reason_count FROM dislike_reason_counts WHERE isNull({user:Nullable(String)})
    UNION ALL
    SELECT model_info, feed_position, reason, reason_count FROM dislike_user_reason_counts
    WHERE user_id = ifNull({user:Nullable(String)}, '') AND isNotNull({user:Nullable(String)})
)
GROUP BY model_group, position_group, reason
HAVING count > 0
ORDER BY isNull(model_group), model_group, isNull(position_group), position_group, count DESC, reason
