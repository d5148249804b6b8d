-- Per user and material: totals, completion and the newest event, title and position.
-- :user      the user, or NULL for all users
-- :material  one material, or NULL for all
SELECT user_id, material_id, events, active_seconds, completions,
       last_ts, last_seq, last_key, target_type,
       title, title_ts, title_seq, title_key,
       position, progress, position_ts, position_seq, position_key
FROM material_state
WHERE (:user IS NULL OR user_id = :user)
  AND (:material IS NULL OR material_id = :material)
ORDER BY user_id, material_id;
