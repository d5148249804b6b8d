-- The model comparison's n and d (metrics.md): per model version, feed position (or position
-- bucket) and user, the exposures and dislikes dislike_rate_models.sql counts for all users, as
-- rows that the comparison adds up per group and user (a user whose exposures add up to 0 is
-- left out there), in no order: the counters per local date, platform, app version, model,
-- position and user as they are kept (model_position_user_days, or model_user_days when not
-- :by_position; without :from and :to their sums over the dates, model_position_users and
-- model_users), and the impressions kept whole because they hold several (slice, model, position)
-- (spanning_impression_slices), one row each.
-- :by_position, :buckets, :from, :to, :platform, :app_version  as in dislike_rate_scan.sql
WITH buckets AS (
    SELECT json_extract(value, '$[0]') AS low, json_extract(value, '$[1]') AS high,
           json_extract(value, '$[2]') AS label, key AS ordinal
    FROM json_each(coalesce(:buckets, '[]'))
),
kept AS (
    SELECT user_id, impression_id, model_info, feed_position, exposed, reaction_ts, reaction_key, feedback_type
    FROM spanning_impression_slices
    WHERE (:from IS NULL OR local_date >= :from) AND (:to IS NULL OR local_date <= :to)
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
),
final_reactions AS (
    SELECT user_id, impression_id, model_info, feed_position, feedback_type FROM (
        SELECT user_id, impression_id, model_info, feed_position, feedback_type,
               ROW_NUMBER() OVER (PARTITION BY user_id, impression_id ORDER BY reaction_ts DESC, reaction_key DESC) AS newest
        FROM kept
        WHERE reaction_ts IS NOT NULL)
    WHERE newest = 1
),
pairs AS (
    SELECT user_id, impression_id, model_info, feed_position, 1 AS exposed, NULL AS reaction FROM kept WHERE exposed = 1
    UNION ALL
    SELECT user_id, impression_id, model_info, feed_position, 0, feedback_type FROM final_reactions
),
cells AS (
    SELECT model_info, NULL AS feed_position, user_id, exposed + feedback_only AS exposures, dislikes
    FROM model_user_days
    WHERE NOT :by_position AND (:from IS NOT NULL OR :to IS NOT NULL)
      AND local_date BETWEEN coalesce(:from, '0000-00-00') AND coalesce(:to, '9999-99-99')
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
    UNION ALL
    SELECT model_info, NULL, user_id, exposed + feedback_only, dislikes
    FROM model_users
    WHERE NOT :by_position AND :from IS NULL AND :to IS NULL
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
    UNION ALL
    SELECT model_info, nullif(feed_position, X''), user_id, exposed + feedback_only, dislikes
    FROM model_position_user_days
    WHERE :by_position AND (:from IS NOT NULL OR :to IS NOT NULL)
      AND local_date BETWEEN coalesce(:from, '0000-00-00') AND coalesce(:to, '9999-99-99')
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
    UNION ALL
    SELECT model_info, nullif(feed_position, X''), user_id, exposed + feedback_only, dislikes
    FROM model_position_users
    WHERE :by_position AND :from IS NULL AND :to IS NULL
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
)
SELECT model_info, position_group AS feed_position, 1 AS exposures, MAX(reaction) IS 'dislike' AS dislikes, user_id
FROM (SELECT model_info,
             CASE WHEN NOT :by_position THEN NULL
                  WHEN :buckets IS NULL THEN feed_position
                  ELSE (SELECT label FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                        ORDER BY ordinal LIMIT 1) END AS position_group,
             user_id, impression_id, reaction
      FROM pairs)
GROUP BY model_info, position_group, user_id, impression_id
UNION ALL
SELECT nullif(model_info, X''),
       CASE WHEN :buckets IS NULL THEN feed_position
            ELSE (SELECT label FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                  ORDER BY ordinal LIMIT 1) END,
       exposures, dislikes, user_id
FROM cells;
