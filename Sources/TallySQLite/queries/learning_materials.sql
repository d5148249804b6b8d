-- Per user and material: totals, completion and the newest event, title and position.
-- :user      the user, or NULL for all users
-- :material  one material, or NULL for all
-- The user is a range of the primary key (every text sorts below the empty blob), so one user's
-- rows are a seek, not a pass over every user's.
SELECT user_id, material_id, events, active_seconds, completions,
       last_ts, last_seq, last_key, target_type,
       title, title_ts, title_seq, title_key,
       position, progress, position_ts, position_seq, position_key
FROM material_state
WHERE user_id >= coalesce(:user, '') AND user_id <= coalesce(:user, x'')
  AND (:material IS NULL OR material_id = :material)
ORDER BY user_id, material_id;
