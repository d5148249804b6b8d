-- Counts of events named {event} per value of {by} (userId, sessionId, platform, appVersion or
-- a property name), most frequent first, then by value (numbers, then text, then null).
-- appVersion reads properties.appVersion, else the event's own appVersion.
-- A number is one group whatever its JSON text: `+ 0` makes a -0 stored by older versions 0.
-- {event}  the event name   {by}  what to count by   {limit}  how many rows
-- {user}   only this user's events, or NULL for all
SELECT key_number, key_text, count() AS count
FROM (
    SELECT indexOf(prop_keys, {by:String}) AS by_index,
           {by:String} NOT IN ('userId', 'sessionId', 'platform') AND by_index > 0 AS from_properties,
           if(from_properties, prop_numbers[by_index] + 0, NULL) AS key_number,
           if(isNotNull(key_number), NULL,
              multiIf({by:String} = 'userId', toNullable(user_id),
                      {by:String} = 'sessionId', toNullable(session_id),
                      {by:String} = 'platform', platform,
                      from_properties, toNullable(prop_values[by_index]),
                      {by:String} = 'appVersion', app_version,
                      NULL)) AS key_text
    FROM observability_events
    WHERE event_name = {event:String}
      AND user_id BETWEEN ifNull({user:Nullable(String)}, '') AND ifNull({user:Nullable(String)}, '\xFF')
)
GROUP BY key_number, key_text
ORDER BY count DESC, isNull(key_number) AND isNull(key_text), isNull(key_number), key_number, key_text
LIMIT {limit:UInt64}
