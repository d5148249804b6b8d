-- Retention by cohort day (docs/decisions.md): for each local date D from {first} to {last}, the
-- users with any reading event on D, and how many of them had one again on D+1, D+7 and D+30.
-- Local dates are each event's own, as everywhere. Days without users have no row. Read from
-- the rollup of each user's days (reading_daily).
-- {user}  the user, or NULL for all users.
SELECT toString(cohort_date) AS date,
       count() AS users,
       countIf(has(days, cohort_date + 1)) AS day1,
       countIf(has(days, cohort_date + 7)) AS day7,
       countIf(has(days, cohort_date + 30)) AS day30
FROM
(
    SELECT user_id, groupUniqArray(local_date) AS days
    FROM reading_daily
    WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
      AND local_date >= {first:Date} AND local_date <= {last:Date} + 30
    GROUP BY user_id
)
ARRAY JOIN days AS cohort_date
WHERE cohort_date >= {first:Date} AND cohort_date <= {last:Date}
GROUP BY cohort_date
ORDER BY cohort_date
