-- Dislike rate per group of model version and feed position (or position bucket), from the
-- counters kept per local date, platform, app version, model, position and user
-- (model_position_user_days, or their sums over the positions, model_user_days, when not
-- :by_position; without :from and :to their sums over the dates, model_position_users and
-- model_users) and the impressions kept whole because they hold several (slice, model, position)
-- (spanning_impression_slices, combined as dislike_rate_scan.sql combines events). The same numbers
-- as dislike_rate_scan.sql for all users, under any filter and grouping: an impression of the
-- counters has all its events in one slice, which a filter keeps or leaves out whole, and in one
-- (model, position), which every grouping puts in one group. The counters are read by their
-- key's leading local date (an unbounded end as a date before or after every date).
-- :by_model, :by_position, :buckets, :from, :to, :platform, :app_version  as in dislike_rate_scan.sql
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
spanning AS (
    SELECT model_info, position_group, 1 AS exposures, MAX(reaction) IS 'like' AS likes,
           MAX(reaction) IS 'dislike' AS dislikes, MAX(exposed) = 0 AS feedback_only
    FROM (SELECT CASE WHEN :by_model THEN model_info END AS model_info,
                 CASE WHEN NOT :by_position THEN NULL
                      WHEN :buckets IS NULL THEN feed_position
                      ELSE (SELECT ordinal FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                            ORDER BY ordinal LIMIT 1) END AS position_group,
                 user_id, impression_id, exposed, reaction
          FROM pairs)
    GROUP BY model_info, position_group, user_id, impression_id
),
cells AS (
    SELECT CASE WHEN :by_model THEN nullif(model_info, X'') END AS model_info, NULL AS feed_position,
           SUM(exposed + feedback_only) AS exposures, SUM(likes) AS likes, SUM(dislikes) AS dislikes,
           SUM(feedback_only) AS feedback_only
    FROM model_user_days
    WHERE NOT :by_position AND (:from IS NOT NULL OR :to IS NOT NULL)
      AND local_date BETWEEN coalesce(:from, '0000-00-00') AND coalesce(:to, '9999-99-99')
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
    GROUP BY 1
    UNION ALL
    SELECT CASE WHEN :by_model THEN nullif(model_info, X'') END, NULL, exposed + feedback_only, likes, dislikes, feedback_only
    FROM model_users
    WHERE NOT :by_position AND :from IS NULL AND :to IS NULL
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
    UNION ALL
    SELECT CASE WHEN :by_model THEN nullif(model_info, X'') END, nullif(feed_position, X''),
           SUM(exposed + feedback_only), SUM(likes), SUM(dislikes), SUM(feedback_only)
    FROM model_position_user_days
    WHERE :by_position AND (:from IS NOT NULL OR :to IS NOT NULL)
      AND local_date BETWEEN coalesce(:from, '0000-00-00') AND coalesce(:to, '9999-99-99')
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
    GROUP BY 1, 2
    UNION ALL
    SELECT CASE WHEN :by_model THEN nullif(model_info, X'') END, nullif(feed_position, X''),
           exposed + feedback_only, likes, dislikes, feedback_only
    FROM model_position_users
    WHERE :by_position AND :from IS NULL AND :to IS NULL
      AND (:platform IS NULL OR platform = :platform) AND (:app_version IS NULL OR app_version = :app_version)
),
counted AS (
    SELECT model_info, position_group, exposures, likes, dislikes, feedback_only FROM spanning
    UNION ALL
    SELECT model_info,
           CASE WHEN NOT :by_position THEN NULL
                WHEN :buckets IS NULL THEN feed_position
                ELSE (SELECT ordinal FROM buckets WHERE feed_position >= low AND (high IS NULL OR feed_position <= high)
                      ORDER BY ordinal LIMIT 1) END,
           exposures, likes, dislikes, feedback_only
    FROM cells
)
SELECT model_info,
       CASE WHEN :buckets IS NULL THEN position_group
            ELSE (SELECT label FROM buckets WHERE ordinal = position_group) END AS feed_position,
       SUM(exposures) AS exposures,
       SUM(likes) AS likes,
       SUM(dislikes) AS dislikes,
       SUM(feedback_only) AS feedback_without_exposure
FROM counted
GROUP BY model_info, position_group
HAVING SUM(exposures) > 0
ORDER BY model_info IS NULL, model_info, position_group IS NULL, position_group;
