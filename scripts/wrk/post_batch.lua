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

function request()
  counter = counter + 1
  local parts = {}
  for i = 1, events_per_batch do
    parts[i] = string.format(
      '{"eventId":"w%d-%d-%d","userId":"u-%d","materialId":"m-%d","eventType":"heartbeat","clientTimestampMs":%d,"activeSecondsDelta":15,"clientTimezoneOffsetMinutes":480}',
      tid, counter, i, i % 50, i % 20, 1795176000000 - (counter * 1000 + i) % 86400000)
  end
  return wrk.format(nil, "/learning/reading-events/batch", nil, '{"events":[' .. table.concat(parts, ",") .. ']}')
end

done = function(summary, latency, requests)
  io.write(string.format("post-batches: %d requests, %d non-2xx/3xx, %.0f events/s\n",
    summary.requests, summary.errors.status, summary.requests * events_per_batch / (summary.duration / 1e6)))
end
