-- How often each reason was given for a final dislike, per group (same group keys as dislike_rate.sql).
-- :by_model, :by_position, :buckets  as in dislike_rate.sql
WITH buckets AS (
    SELECT json_extract(value, '$[0]') AS low, json_extract(value, '$[1]') AS high,
           json_extract(value, '$[2]') AS label, key AS ordinal
    FROM json_each(coalesce(:buckets, '[]'))
)
SELECT CASE WHEN :by_model THEN model_info END AS model_info,
       CASE WHEN NOT :by_position THEN NULL
            WHEN :buckets IS NULL THEN feed_position
            ELSE (SELECT label FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                  ORDER BY ordinal LIMIT 1) END AS feed_position,
       reason,
       SUM(count) AS count
FROM dislike_reasons
GROUP BY 1, 2, reason
ORDER BY 1, 2, count DESC, reason;
