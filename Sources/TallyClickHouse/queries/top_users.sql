-- Counts of events named {event} per userId, most frequent first, then by user, from the
-- rollup of events per name and user (event_user_counts); top.sql counts by any other field.
-- {event}  the event name   {limit}  how many rows   {user}  one user, or NULL for all
SELECT user_id, sum(events) AS count
FROM event_user_counts
WHERE event_name = {event:String}
  AND user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
GROUP BY user_id
ORDER BY count DESC, user_id
LIMIT {limit:UInt64}
