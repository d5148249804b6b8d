-- The exposures under the feed filters for all users, from the rows kept per slice (local date,
-- platform, app version) at ingest: per kept pair (or row of pairs alike) its group value, item,
-- user, exposures and duplicates, unsorted, which the report adds up per group (`exposures`,
-- distinct items, distinct users, duplicates) into exposures_scan.sql's numbers. A pair of
-- exposure_slices has all its events in one slice, which a filter keeps or leaves out whole; a
-- pair of spanning_exposure_slices counts at the earliest first event of its kept slices, with
-- the events of those slices, as exposures_scan.sql counts the events.
-- :by  day | page | item | model | position
-- :from, :to, :platform, :app_version  as in exposures_scan.sql
WITH kept AS (
    SELECT item_id, local_date, user_id, page_id, model_info, feed_position,
           ROW_NUMBER() OVER (PARTITION BY page_instance_id, item_id ORDER BY first_ts, first_key) AS rank,
           SUM(events) OVER (PARTITION BY page_instance_id, item_id) AS events
    FROM spanning_exposure_slices
    WHERE (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
)
SELECT CASE :by WHEN 'day' THEN local_date
                WHEN 'page' THEN page_id
                WHEN 'item' THEN item_id
                WHEN 'model' THEN model_info
                WHEN 'position' THEN feed_position END AS group_key,
       item_id, user_id, 1 AS exposures, events - 1 AS duplicates
FROM kept
WHERE rank = 1
UNION ALL
SELECT CASE :by WHEN 'day' THEN local_date
                WHEN 'page' THEN nullif(page_id, X'')
                WHEN 'item' THEN item_id
                WHEN 'model' THEN nullif(model_info, X'')
                WHEN 'position' THEN nullif(feed_position, X'') END,
       item_id, user_id, exposures, duplicates
FROM exposure_slices
WHERE local_date >= ifnull(:from, '') AND local_date <= ifnull(:to, X'')
  AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version);
