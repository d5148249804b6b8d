-- A counter about the store kept at ingest, such as 'impressions_in_several_groups'.
-- :name  the counter
SELECT value FROM rollup_counters WHERE name = :name;
