-- Lines that failed validation, by file, line and position in a batch; a line rejected again
-- by a re-run is listed once.
-- {file}  only lines of this file, or NULL for all
SELECT DISTINCT file, line, if(element < 0, NULL, element) AS element, code, field, message, event_key AS eventKey, raw
FROM rejected_lines
WHERE ({file:Nullable(String)} IS NULL OR file = ifNull({file:Nullable(String)}, ''))
ORDER BY file, line, element
