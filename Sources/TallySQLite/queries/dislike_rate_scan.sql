-- Dislike rate per group of model version and feed position (metrics.md), computed from the
-- events themselves. Exact for any grouping; dislike_rate.sql answers from the per-group
-- counters instead when no impression spans groups (or the groups are the fine ones), and
-- dislike_rate_models.sql from the per-slice counters for all users under any filter.
-- A (user, impression) counts as exposed in a group with an exposure event of that group, and
-- also when its final (newest) feedback event is in the group without any exposure there.
-- :user        only this user's impressions, or NULL for all
-- :by_model     1 to group by modelInfo, 0 not to
-- :by_position  1 to group by feedPosition, 0 not to
-- :buckets      NULL, or a JSON array of [low, high, label] (high NULL = open) mapping positions
--               to buckets, e.g. [[0,4,"0-4"],[5,9,"5-9"],[10,null,"10-"]]
-- :by_user      1 to split each group by user_id (the model comparison's n and d per user), 0 not to
-- :from, :to    keep only the events of local dates from...to (YYYY-MM-DD), NULL for no bound
-- :platform, :app_version  keep only the events with this platform / appVersion, NULL for all
WITH buckets AS (
    SELECT json_extract(value, '$[0]') AS low, json_extract(value, '$[1]') AS high,
           json_extract(value, '$[2]') AS label, key AS ordinal
    FROM json_each(coalesce(:buckets, '[]'))
),
final_reactions AS (
    SELECT user_id, impression_id, model_info, feed_position, feedback_type FROM (
        SELECT user_id, impression_id, model_info, feed_position, feedback_type,
               ROW_NUMBER() OVER (PARTITION BY user_id, impression_id ORDER BY ts_ms DESC, id DESC) AS newest
        FROM feedback_events
        WHERE (:user IS NULL OR user_id = :user)
          AND (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
          AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version))
    WHERE newest = 1
),
pairs AS (
    SELECT DISTINCT user_id, impression_id, model_info, feed_position, 1 AS exposed, NULL AS reaction
    FROM exposure_events
    WHERE impression_id IS NOT NULL AND (:user IS NULL OR user_id = :user)
      AND (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
    UNION ALL
    SELECT user_id, impression_id, model_info, feed_position, 0, feedback_type
    FROM final_reactions
),
grouped AS (
    SELECT CASE WHEN :by_model THEN model_info END AS model_info,
           CASE WHEN NOT :by_position THEN NULL
                WHEN :buckets IS NULL THEN feed_position
                ELSE (SELECT ordinal FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                      ORDER BY ordinal LIMIT 1) END AS position_group,
           user_id, impression_id, MAX(exposed) AS exposed, MAX(reaction) AS reaction
    FROM pairs
    GROUP BY 1, 2, user_id, impression_id
)
SELECT model_info,
       CASE WHEN :buckets IS NULL THEN position_group
            ELSE (SELECT label FROM buckets WHERE ordinal = position_group) END AS feed_position,
       COUNT(*) AS exposures,
       COUNT(CASE WHEN reaction = 'like' THEN 1 END) AS likes,
       COUNT(CASE WHEN reaction = 'dislike' THEN 1 END) AS dislikes,
       COUNT(CASE WHEN exposed = 0 THEN 1 END) AS feedback_without_exposure,
       CASE WHEN :by_user THEN user_id END AS user_id
FROM grouped
GROUP BY model_info, position_group, CASE WHEN :by_user THEN user_id END
ORDER BY model_info IS NULL, model_info, position_group IS NULL, position_group;
