-- Dislike rate per group of model version and feed position (metrics.md), from the per-group
-- counters kept at ingest. Summing them into coarser groups (one key, or position buckets) is
-- exact while no impression appears in more than one group (rollup_counters
-- 'impressions_in_several_groups' = 0); otherwise dislike_rate_scan.sql answers.
-- :by_model, :by_position, :buckets  as in dislike_rate_scan.sql
WITH buckets AS (
    SELECT json_extract(value, '$[0]') AS low, json_extract(value, '$[1]') AS high,
           json_extract(value, '$[2]') AS label, key AS ordinal
    FROM json_each(coalesce(:buckets, '[]'))
),
grouped AS (
    SELECT CASE WHEN :by_model THEN model_info END AS model_info,
           CASE WHEN NOT :by_position THEN NULL
                WHEN :buckets IS NULL THEN feed_position
                ELSE (SELECT ordinal FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                      ORDER BY ordinal LIMIT 1) END AS position_group,
           exposed, feedback_only, likes, dislikes
    FROM dislike_groups
)
SELECT model_info,
       CASE WHEN :buckets IS NULL THEN position_group
            ELSE (SELECT label FROM buckets WHERE ordinal = position_group) END AS feed_position,
       SUM(exposed + feedback_only) AS exposures,
       SUM(likes) AS likes,
       SUM(dislikes) AS dislikes,
       SUM(feedback_only) AS feedback_without_exposure
FROM grouped
GROUP BY model_info, position_group
HAVING SUM(exposed + feedback_only) > 0
ORDER BY model_info IS NULL, model_info, position_group IS NULL, position_group;
