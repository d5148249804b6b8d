-- A counter about the store kept at ingest, such as 'impressions_in_several_groups'
-- (rollup_counters) or 'pairs_of_several_users' (exposure_counters); 0 when none was ever counted.
-- {name}  the counter
SELECT sum(value) AS value
FROM (
    SELECT value FROM rollup_counters WHERE name = {name:String}
    UNION ALL
    SELECT value FROM exposure_counters WHERE name = {name:String}
)
