-- Per material (of one user, or of all users together): active seconds, completions, and the
-- newest event, the newest non-null title and the newest position, each with its ordering key
-- (timestamp, sequence, event id). progress is -1 where the newest position has none.
-- {user}      the user, or NULL for all users
-- {material}  one material, or NULL for all
SELECT material_id, seconds AS active_seconds, completions,
       tupleElement(last, 1) AS last_ts, tupleElement(last, 2) AS last_seq, tupleElement(last, 3) AS last_key,
       newest_type AS target_type,
       titles > 0 AS has_title, tupleElement(newest_title, 1) AS title,
       tupleElement(newest_title, 2) AS title_ts, tupleElement(newest_title, 3) AS title_seq, tupleElement(newest_title, 4) AS title_key,
       positions > 0 AS has_position, tupleElement(newest_position, 1) AS position, tupleElement(newest_position, 2) AS progress,
       tupleElement(newest_position, 3) AS position_ts, tupleElement(newest_position, 4) AS position_seq,
       tupleElement(newest_position, 5) AS position_key
FROM (
    SELECT material_id,
           sum(active_seconds) AS seconds,
           countIf(event_type = 'marked_as_read') AS completions,
           max(tuple(ts_ms, ifNull(sequence, 0), event_id) AS newest) AS last,
           argMax(target_type, newest) AS newest_type,
           countIf(isNotNull(title)) AS titles,
           argMaxIf(tuple(assumeNotNull(title), ts_ms, ifNull(sequence, 0), event_id), newest, isNotNull(title)) AS newest_title,
           countIf(isNotNull(position)) AS positions,
           argMaxIf(tuple(assumeNotNull(position), ifNull(progress, -1), ts_ms, ifNull(sequence, 0), event_id),
                    newest, isNotNull(position)) AS newest_position
    FROM reading_events
    WHERE ({user:Nullable(String)} IS NULL OR user_id = ifNull({user:Nullable(String)}, ''))
      AND ({material:Nullable(String)} IS NULL OR material_id = ifNull({material:Nullable(String)}, ''))
    GROUP BY material_id
)
ORDER BY material_id
