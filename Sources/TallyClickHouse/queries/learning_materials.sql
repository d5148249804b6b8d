-- Per material (of one user, or of all users together): active seconds, completions, and the
-- newest event, the newest non-null title and the newest position, each with its ordering key
-- (timestamp, sequence, event id). progress is -1 where the newest position has none.
-- Read from the rollups (ClickHouseRollups): reading_materials per user, reading_materials_all
-- for all; a title's (position's) state is keyed first by whether the event had one.
-- {user}      the user, or NULL for all users
-- {material}  one material, or NULL for all
SELECT material_id, seconds AS active_seconds, completions,
       tupleElement(newest, 1) AS last_ts, tupleElement(newest, 2) AS last_seq, tupleElement(newest, 3) AS last_key,
       newest_type AS target_type,
       titles > 0 AS has_title, tupleElement(newest_title, 1) AS title,
       tupleElement(newest_title, 2) AS title_ts, tupleElement(newest_title, 3) AS title_seq, tupleElement(newest_title, 4) AS title_key,
       positions > 0 AS has_position, tupleElement(newest_position, 1) AS position, tupleElement(newest_position, 2) AS progress,
       tupleElement(newest_position, 3) AS position_ts, tupleElement(newest_position, 4) AS position_seq,
       tupleElement(newest_position, 5) AS position_key
FROM (
    SELECT material_id, sumMerge(seconds_state) AS seconds, sumMerge(completions_state) AS completions, maxMerge(last_state) AS newest,
           argMaxMerge(type_state) AS newest_type, sumMerge(titles_state) AS titles, argMaxMerge(title_state) AS newest_title,
           sumMerge(positions_state) AS positions, argMaxMerge(position_state) AS newest_position
    FROM reading_materials
    WHERE isNotNull({user:Nullable(String)}) AND user_id = ifNull({user:Nullable(String)}, '')
      AND material_id BETWEEN ifNull({material:Nullable(String)}, '') AND ifNull({material:Nullable(String)}, '\xFF')
    GROUP BY material_id
    UNION ALL
    SELECT material_id, sumMerge(seconds_state) AS seconds, sumMerge(completions_state) AS completions, maxMerge(last_state) AS newest,
           argMaxMerge(type_state) AS newest_type, sumMerge(titles_state) AS titles, argMaxMerge(title_state) AS newest_title,
           sumMerge(positions_state) AS positions, argMaxMerge(position_state) AS newest_position
    FROM reading_materials_all
    WHERE isNull({user:Nullable(String)})
      AND material_id BETWEEN ifNull({material:Nullable(String)}, '') AND ifNull({material:Nullable(String)}, '\xFF')
    GROUP BY material_id
)
ORDER BY material_id
