-- The earliest and latest local date each model version served (model comparison, metrics.md),
-- over every event (compare with no filter and no user): the rows of compare_dates.sql, read
-- from the rollups exposure_model_dates and feedback_model_dates, kept at ingest per model and
-- position.
-- {by_position}, {bucket_lows}, {bucket_highs}  as in dislike_rate_scan.sql
SELECT model AS model_info,
       if({by_position:UInt8} = 0, NULL,
          if(empty({bucket_lows:Array(Int64)}), if(position_null = 1, NULL, toNullable(position)),
             nullIf(toInt64(arrayFirstIndex((low, high) -> if(position_null = 1, -1, position) >= low
                                               AND (high < 0 OR if(position_null = 1, -1, position) <= high),
                                            {bucket_lows:Array(Int64)}, {bucket_highs:Array(Int64)})), 0))) AS position_group,
       min(first_seen) AS first_date,
       max(last_seen) AS last_date
FROM (
    SELECT model, position, position_null, minMerge(first_date) AS first_seen, maxMerge(last_date) AS last_seen
    FROM exposure_model_dates
    GROUP BY model, position, position_null
    UNION ALL
    SELECT model, position, position_null, minMerge(first_date), maxMerge(last_date)
    FROM feedback_model_dates
    GROUP BY model, position, position_null
)
GROUP BY model_info, position_group
