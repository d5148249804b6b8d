-- Active seconds and materials read per local date, every date with reading events, oldest first.
-- {user}  the user, or NULL for all users together (per-event local dates either way).
SELECT toString(local_date) AS date,
       sum(active_seconds) AS seconds,
       uniqExactIf(material_id, active_seconds > 0) AS materials_read
FROM reading_events
WHERE ({user:Nullable(String)} IS NULL OR user_id = ifNull({user:Nullable(String)}, ''))
GROUP BY local_date
ORDER BY local_date
