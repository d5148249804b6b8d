-- Active seconds and materials read per local date, every date with reading events, oldest first.
-- Read from the rollups (ClickHouseRollups): reading_daily per user, reading_daily_all for all.
-- {user}  the user, or NULL for all users together (per-event local dates either way).
SELECT toString(local_date) AS date,
       sum(material_seconds) AS seconds,
       countIf(material_seconds > 0) AS materials_read
FROM (
    SELECT local_date, material_id, sum(seconds) AS material_seconds
    FROM reading_daily
    WHERE isNotNull({user:Nullable(String)}) AND user_id = ifNull({user:Nullable(String)}, '')
    GROUP BY local_date, material_id
    UNION ALL
    SELECT local_date, material_id, sum(seconds) AS material_seconds
    FROM reading_daily_all
    WHERE isNull({user:Nullable(String)})
    GROUP BY local_date, material_id
)
GROUP BY local_date
ORDER BY local_date
