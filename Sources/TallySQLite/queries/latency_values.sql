-- The events `latency` reads: the `properties` and `app_version` of every event named :event, in
-- no order, as stored. SQLiteReports.latency takes properties.<field> (the value) and
-- properties.<by> (the group) out of the JSON text itself where the text is plain enough for its
-- answer to be certainly that of SQLite's JSON functions (LatencyScanner), asks latency_row.sql
-- for every other event, and groups and sorts the values in Swift. SQLite's JSON functions parse
-- the text once a call: called for each of 1.8M events (about five calls each) they cost four
-- times the reading of the events.
-- :event  the event name   :user  only this user's events, or NULL for all
-- The index is read a date at a time (the dates of :event from event_name_days); the user is a
-- range on it so that one user's rows are sought, not filtered: with :user NULL it runs from ''
-- to the empty blob, which sorts after every text.
SELECT e.properties, e.app_version
FROM event_name_days AS d
JOIN observability_events AS e INDEXED BY observability_events_name
  ON e.local_date = d.local_date AND e.event_name = d.event_name
WHERE d.event_name = :event AND e.user_id >= coalesce(:user, '') AND e.user_id <= coalesce(:user, x'');
