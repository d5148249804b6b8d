-- Exposure counts: one per (pageInstanceId, itemId) at its earliest event; further events of
-- the pair are duplicateExposures in the group of that earliest event. Read from the per-group
-- rows kept at ingest (exposure_firsts holds the pairs themselves). A missing group value is
-- stored as the empty blob, which sorts last.
-- :by  day | page | item | model | position
SELECT CASE WHEN typeof(group_value) = 'blob' THEN NULL ELSE group_value END AS group_key,
       exposures,
       CASE WHEN dimension = 'item' THEN 1 ELSE unique_items END AS unique_items,
       unique_users,
       duplicates AS duplicate_exposures
FROM exposure_groups
WHERE dimension = :by AND exposures > 0
ORDER BY group_value;
