-- Dislike rate per model version (or for all models together), from the counters kept per local
-- date, platform, app version, model and user (model_user_days) and the impressions kept whole
-- because they hold several (slice, model) (spanning_impression_slices, combined as
-- dislike_rate_scan.sql combines events). The same numbers as dislike_rate_scan.sql without
-- :by_position, for any filter: an impression of the counters has all its events in one slice,
-- which a filter keeps or leaves out whole.
-- :by_model, :by_user, :from, :to, :platform, :app_version  as in dislike_rate_scan.sql
WITH kept AS (
    SELECT user_id, impression_id, model_info, exposed, reaction_ts, reaction_key, feedback_type
    FROM spanning_impression_slices
    WHERE (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
),
final_reactions AS (
    SELECT user_id, impression_id, model_info, feedback_type FROM (
        SELECT user_id, impression_id, model_info, feedback_type,
               ROW_NUMBER() OVER (PARTITION BY user_id, impression_id ORDER BY reaction_ts DESC, reaction_key DESC) AS newest
        FROM kept
        WHERE reaction_ts IS NOT NULL)
    WHERE newest = 1
),
pairs AS (
    SELECT user_id, impression_id, model_info, 1 AS exposed, NULL AS reaction FROM kept WHERE exposed = 1
    UNION ALL
    SELECT user_id, impression_id, model_info, 0, feedback_type FROM final_reactions
),
spanning AS (
    SELECT CASE WHEN :by_model THEN model_info END AS model_info, user_id,
           MAX(exposed) AS exposed, MAX(reaction) AS reaction
    FROM pairs
    GROUP BY 1, user_id, impression_id
),
counted AS (
    SELECT model_info, user_id, 1 AS exposures, reaction IS 'like' AS likes, reaction IS 'dislike' AS dislikes,
           exposed = 0 AS feedback_only
    FROM spanning
    UNION ALL
    SELECT CASE WHEN :by_model THEN nullif(model_info, X'') END, user_id, exposed + feedback_only, likes, dislikes,
           feedback_only
    FROM model_user_days
    WHERE (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
)
SELECT model_info, NULL AS feed_position,
       SUM(exposures) AS exposures,
       SUM(likes) AS likes,
       SUM(dislikes) AS dislikes,
       SUM(feedback_only) AS feedback_without_exposure,
       CASE WHEN :by_user THEN user_id END AS user_id
FROM counted
GROUP BY model_info, CASE WHEN :by_user THEN user_id END
HAVING SUM(exposures) > 0
ORDER BY model_info IS NULL, model_info;
