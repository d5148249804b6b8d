-- How often each reason was given for a final dislike, per group (the group keys of
-- dislike_rate.sql), most frequent first, then by reason, from the events (dislike_reasons.sql
-- reads the counters kept at ingest).
-- {user}, {by_model}, {by_position}, {bucket_lows}, {bucket_highs}, {from}, {to}, {platform},
-- {app_version}  as in dislike_rate_scan.sql
SELECT if({by_model:UInt8} = 1, toNullable(model_info), NULL) AS model_group,
       if({by_position:UInt8} = 0, NULL,
          if(empty({bucket_lows:Array(Int64)}), toNullable(feed_position),
             nullIf(toInt64(arrayFirstIndex((low, high) -> feed_position >= low AND (high < 0 OR feed_position <= high),
                                            {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS position_group,
       reason,
       count() AS count
FROM (
    SELECT tupleElement(final, 1) AS model_info, tupleElement(final, 2) AS feed_position,
           tupleElement(final, 3) AS feedback_type, if(tupleElement(final, 5), NULL, tupleElement(final, 4)) AS reason
    FROM (
        -- No Nullable inside the tuple: 18.16 cannot send such an aggregate state between shards.
        SELECT argMax(tuple(model_info, feed_position, feedback_type, ifNull(reason, ''), isNull(reason)),
                      tuple(ts_ms, id)) AS final
        FROM feedback_events
        WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
          AND local_date >= ifNull({from:Nullable(Date)}, '0001-01-01')
          AND local_date <= ifNull({to:Nullable(Date)}, '9999-12-31')
          AND (isNull({platform:Nullable(String)}) OR platform = {platform:Nullable(String)})
          AND (isNull({app_version:Nullable(String)}) OR app_version = {app_version:Nullable(String)})
        GROUP BY user_id, impression_id
    )
)
WHERE feedback_type = 'dislike' AND isNotNull(reason)
GROUP BY model_group, position_group, reason
ORDER BY isNull(model_group), model_group, isNull(position_group), position_group, count DESC, reason
