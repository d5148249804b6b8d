-- The earliest and latest local date each model version served (model comparison, metrics.md),
-- per model, from the (model, local date, platform, app version) of its exposure and feedback
-- events kept at ingest (model_days): compare_dates.sql without :by_position.
-- :from, :to, :platform, :app_version  as in dislike_rate_scan.sql
SELECT model_info, NULL AS feed_position, MIN(local_date) AS first_date, MAX(local_date) AS last_date
FROM model_days
WHERE (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
  AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
GROUP BY model_info;
