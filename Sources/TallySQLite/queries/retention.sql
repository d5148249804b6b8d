-- Retention by cohort day (docs/decisions.md): for each local date D from :first to :last, the
-- users with any reading event on D, and how many of them had one again on D+1, D+7 and D+30.
-- Local dates are each event's own, as everywhere. Days without users have no row.
-- :user  the user, or NULL for all users.
WITH cohort AS (
    SELECT DISTINCT user_id, local_date
    FROM reading_daily
    WHERE local_date BETWEEN :first AND :last AND (:user IS NULL OR user_id = :user)
)
SELECT local_date AS date,
       COUNT(*) AS users,
       SUM(EXISTS (SELECT 1 FROM reading_daily r
                   WHERE r.user_id = cohort.user_id AND r.local_date = date(cohort.local_date, '+1 day'))) AS day1,
       SUM(EXISTS (SELECT 1 FROM reading_daily r
                   WHERE r.user_id = cohort.user_id AND r.local_date = date(cohort.local_date, '+7 day'))) AS day7,
       SUM(EXISTS (SELECT 1 FROM reading_daily r
                   WHERE r.user_id = cohort.user_id AND r.local_date = date(cohort.local_date, '+30 day'))) AS day30
FROM cohort
GROUP BY local_date
ORDER BY local_date;
