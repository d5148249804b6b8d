-- Retention by cohort day (docs/decisions.md): for each local date D from {first} to {last}, the
-- users with any reading event on D, and how many of them had one again on D+1, D+7 and D+30.
-- Local dates are each event's own, as everywhere. Days without users have no row. Read from
-- the rollup of each user's days (reading_daily). Local dates are text (YYYY-MM-DD, years
-- 0001-9999, beyond ClickHouse's Date), so D+N is counted on day numbers (days since
-- 1970-01-01, proleptic Gregorian) computed from the text.
-- {user}  the user, or NULL for all users.
SELECT tupleElement(cohort, 2) AS date,
       count() AS users,
       countIf(has(days, tupleElement(cohort, 1) + 1)) AS day1,
       countIf(has(days, tupleElement(cohort, 1) + 7)) AS day7,
       countIf(has(days, tupleElement(cohort, 1) + 30)) AS day30
FROM
(
    SELECT user_id, groupUniqArray(day) AS days, groupUniqArrayIf(tuple(day, local_date), local_date <= {last:Date}) AS dated
    FROM
    (
        SELECT user_id, local_date,
               intDiv(y, 400) * 146097 + (y % 400) * 365 + intDiv(y % 400, 4) - intDiv(y % 400, 100)
                   + intDiv(153 * ((m + 9) % 12) + 2, 5) + d - 1 - 719468 AS day
        FROM
        (
            SELECT user_id, local_date, toInt64(substring(local_date, 6, 2)) AS m, toInt64(substring(local_date, 9, 2)) AS d,
                   toInt64(substring(local_date, 1, 4)) - (m <= 2) AS y
            FROM reading_daily
            WHERE user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
              AND local_date >= {first:Date}
        )
    )
    GROUP BY user_id
)
ARRAY JOIN dated AS cohort
GROUP BY tupleElement(cohort, 1), tupleElement(cohort, 2)
ORDER BY tupleElement(cohort, 1)
