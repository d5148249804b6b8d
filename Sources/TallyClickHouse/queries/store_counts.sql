-- Events stored per family and lines rejected (each once, however often it was rejected, as
-- SQLite keeps them): report serve's /healthz.
SELECT (SELECT count() FROM reading_events) AS reading,
       (SELECT count() FROM feedback_events) AS feedback,
       (SELECT count() FROM exposure_events) AS exposure,
       (SELECT count() FROM observability_events) AS observability,
       (SELECT count() FROM (SELECT DISTINCT file, line, element, raw FROM rejected_lines)) AS rejectedLines
