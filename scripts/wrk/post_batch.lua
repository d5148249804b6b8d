-- wrk: POST /learning/reading-events/batch with 100 new reading events a request, every
-- event id unique across threads and requests, so that every event is stored (none a duplicate).
local thread_id = 0
local counter = 0
local events_per_batch = 100

function setup(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
end

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

-- The part of each event after its id, made once: a request only joins ids to them.
local tails = {}
for i = 1, events_per_batch do
  tails[i] = string.format(
    '","userId":"u-%d","materialId":"m-%d","eventType":"heartbeat","clientTimestampMs":%d,"activeSecondsDelta":15,"clientTimezoneOffsetMinutes":480}',
    i % 50, i % 20, 1795176000000 - i * 1000)
end

function request()
  counter = counter + 1
  local prefix = '{"eventId":"w' .. tid .. '-' .. counter .. '-'
  local parts = {}
  for i = 1, events_per_batch do
    parts[i] = prefix .. i .. tails[i]
  end
  return wrk.format(nil, "/learning/reading-events/batch", nil, '{"events":[' .. table.concat(parts, ",") .. ']}')
end

done = function(summary, latency, requests)
  io.write(string.format("post-batches: %d requests, %d non-2xx/3xx, %.0f events/s\n",
    summary.requests, summary.errors.status, summary.requests * events_per_batch / (summary.duration / 1e6)))
end
