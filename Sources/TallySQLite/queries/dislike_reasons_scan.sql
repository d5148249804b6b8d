-- How often each reason was given for a final dislike, per group, computed from the events
-- (dislike_reasons.sql reads the counts kept at ingest).
-- :user  only this user's impressions, or NULL for all
-- :by_model, :by_position, :buckets, :from, :to, :platform, :app_version  as in dislike_rate_scan.sql
WITH buckets AS (
    SELECT json_extract(value, '$[0]') AS low, json_extract(value, '$[1]') AS high,
           json_extract(value, '$[2]') AS label, key AS ordinal
    FROM json_each(coalesce(:buckets, '[]'))
),
final_reactions AS (
    SELECT model_info, feed_position, feedback_type, reason FROM (
        SELECT model_info, feed_position, feedback_type, reason,
               ROW_NUMBER() OVER (PARTITION BY user_id, impression_id ORDER BY ts_ms DESC, id DESC) AS newest
        FROM feedback_events
        WHERE (:user IS NULL OR user_id = :user)
          AND (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
          AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version))
    WHERE newest = 1
)
SELECT CASE WHEN :by_model THEN model_info END AS model_info,
       CASE WHEN NOT :by_position THEN NULL
            WHEN :buckets IS NULL THEN feed_position
            ELSE (SELECT label FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                  ORDER BY ordinal LIMIT 1) END AS feed_position,
       reason,
       COUNT(*) AS count
FROM final_reactions
WHERE feedback_type = 'dislike' AND reason IS NOT NULL
GROUP BY 1, 2, reason
ORDER BY 1, 2, count DESC, reason;
