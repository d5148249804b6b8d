-- The earliest and latest local date each model version served (model comparison, metrics.md),
-- per model and (with :by_position) position group, from the (model, position, local date,
-- platform, app version) of its exposure and feedback events kept at ingest (model_days): the
-- rows of compare_dates.sql for all users.
-- :by_position, :buckets, :from, :to, :platform, :app_version  as in dislike_rate_scan.sql
WITH buckets AS (
    SELECT json_extract(value, '$[0]') AS low, json_extract(value, '$[1]') AS high,
           json_extract(value, '$[2]') AS label, key AS ordinal
    FROM json_each(coalesce(:buckets, '[]'))
),
grouped AS (
    SELECT model_info,
           CASE WHEN NOT :by_position THEN NULL
                WHEN :buckets IS NULL THEN feed_position
                ELSE (SELECT ordinal FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                      ORDER BY ordinal LIMIT 1) END AS position_group,
           MIN(local_date) AS first_date, MAX(local_date) AS last_date
    FROM (SELECT model_info, nullif(feed_position, X'') AS feed_position, local_date
          FROM model_days
          WHERE (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
            AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version))
    GROUP BY 1, 2
)
SELECT model_info,
       CASE WHEN :buckets IS NULL THEN position_group
            ELSE (SELECT label FROM buckets WHERE ordinal = position_group) END AS feed_position,
       first_date, last_date
FROM grouped;
