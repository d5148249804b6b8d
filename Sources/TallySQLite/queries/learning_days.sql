-- Active seconds and materials read per local date, every date with events, oldest first.
-- :user  the user, or NULL for all users together (per-event local dates either way).
SELECT local_date,
       SUM(active_seconds) AS active_seconds,
       COUNT(CASE WHEN active_seconds > 0 THEN 1 END) AS materials
FROM reading_daily
WHERE :user IS NOT NULL AND user_id = :user
GROUP BY local_date
UNION ALL
SELECT local_date,
       SUM(active_seconds),
       COUNT(CASE WHEN active_seconds > 0 THEN 1 END)
FROM reading_daily_all
WHERE :user IS NULL
GROUP BY local_date
ORDER BY local_date;
