-- Lines that failed validation, in the order they were met.
-- :file  only lines of this file, or NULL for all
SELECT file, line, element, code, field, message, event_key AS eventKey, raw
FROM rejected_lines
WHERE :file IS NULL OR file = :file
ORDER BY id;
