-- Exposure counts: one per (pageInstanceId, itemId) at its earliest event; further events of
-- the pair are duplicateExposures in the group of that earliest event.
-- :by  day | page | item | model | position
SELECT CASE :by WHEN 'day' THEN local_date
                WHEN 'page' THEN page_id
                WHEN 'item' THEN item_id
                WHEN 'model' THEN model_info
                WHEN 'position' THEN feed_position END AS group_key,
       COUNT(*) AS exposures,
       COUNT(DISTINCT item_id) AS unique_items,
       COUNT(DISTINCT user_id) AS unique_users,
       SUM(events - 1) AS duplicate_exposures
FROM exposure_firsts
GROUP BY group_key
ORDER BY group_key IS NULL, group_key;
