-- The earliest and latest local date each model version served (model comparison, metrics.md):
-- among its exposure events and the feedback events that name it, after the filters, per
-- model and (with {by_position}) position group, keyed as dislike_rate_scan.sql keys them.
-- {user}, {by_position}, {bucket_lows}, {bucket_highs}, {from}, {to}, {platform}, {app_version}
--   as in dislike_rate_scan.sql
SELECT model_info,
       if({by_position:UInt8} = 0, NULL,
          if(empty({bucket_lows:Array(Int64)}), feed_position,
             nullIf(toInt64(arrayFirstIndex((low, high) -> ifNull(feed_position, -1) >= low
                                               AND (high < 0 OR ifNull(feed_position, -1) <= high),
                                            {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS position_group,
       toString(min(local_date)) AS first_date,
       toString(max(local_date)) AS last_date
FROM (
    SELECT assumeNotNull(model_info) AS model_info, feed_position, local_date
    FROM exposure_events
    WHERE isNotNull(model_info)
      AND user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
      AND local_date >= ifNull({from:Nullable(Date)}, '0001-01-01')
      AND local_date <= ifNull({to:Nullable(Date)}, '9999-12-31')
      AND (isNull({platform:Nullable(String)}) OR platform = {platform:Nullable(String)})
      AND (isNull({app_version:Nullable(String)}) OR app_version = {app_version:Nullable(String)})
    UNION ALL
    SELECT model_info, toNullable(feed_position), local_date
    FROM feedback_events
    WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
      AND local_date >= ifNull({from:Nullable(Date)}, '0001-01-01')
      AND local_date <= ifNull({to:Nullable(Date)}, '9999-12-31')
      AND (isNull({platform:Nullable(String)}) OR platform = {platform:Nullable(String)})
      AND (isNull({app_version:Nullable(String)}) OR app_version = {app_version:Nullable(String)})
)
GROUP BY model_info, position_group
