-- A counter about the store kept at ingest, such as 'impressions_in_several_groups' (0 when
-- none was ever counted).
-- {name}  the counter
SELECT sum(value) AS value FROM rollup_counters WHERE name = {name:String}
