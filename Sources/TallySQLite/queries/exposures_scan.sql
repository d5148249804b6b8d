-- Exposure counts computed from the events (exposures.sql reads the rows kept at ingest): the
-- earliest event of each (pageInstanceId, itemId) by timestamp, then event id, counts once in
-- its group; the pair's other events are duplicateExposures there.
-- :by    day | page | item | model | position
-- :user  only this user's exposures, or NULL for all
-- :from, :to, :platform, :app_version  keep only these events, as in dislike_rate_scan.sql (the
--        earliest event of a pair is then the earliest of those kept)
WITH ranked AS (
    SELECT local_date, page_id, item_id, model_info, feed_position, user_id,
           ROW_NUMBER() OVER (PARTITION BY page_instance_id, item_id ORDER BY ts_ms, event_id) AS rank,
           COUNT(*) OVER (PARTITION BY page_instance_id, item_id) AS events
    FROM exposure_events
    WHERE (:user IS NULL OR user_id = :user)
      AND (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
)
SELECT CASE :by WHEN 'day' THEN local_date
                WHEN 'page' THEN page_id
                WHEN 'item' THEN item_id
                WHEN 'model' THEN model_info
                WHEN 'position' THEN feed_position END AS group_key,
       COUNT(*) AS exposures,
       COUNT(DISTINCT item_id) AS unique_items,
       COUNT(DISTINCT user_id) AS unique_users,
       SUM(events - 1) AS duplicate_exposures
FROM ranked
WHERE rank = 1
GROUP BY group_key
ORDER BY group_key IS NULL, group_key;
