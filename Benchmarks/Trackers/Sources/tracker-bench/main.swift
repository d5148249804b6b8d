import TallyEvents
import TallyKit

#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// A sink that keeps nothing, so the figures are the tracker's own work.
final class DiscardingSink: EventSink {
    private let count = Locked<UInt64>(0)

    func enqueue(_ event: Event) -> EnqueueReceipt {
        count.withLock {
            $0 += 1
            return EnqueueReceipt(sequence: $0)
        }
    }

    func waitUntilDurable(_ receipt: EnqueueReceipt) async throws {}
}

/// Monotonic nanoseconds.
func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Times `calls` calls of `body` one by one and prints the median and p99 in nanoseconds.
func measure(_ label: String, calls: Int, _ body: (Int) -> Void) {
    for index in 0..<min(calls, 10_000) { body(index) }  // warm-up
    var samples = [UInt64](repeating: 0, count: calls)
    for index in 0..<calls {
        let start = nanoseconds()
        body(index)
        samples[index] = nanoseconds() - start
    }
    samples.sort()
    let median = samples[(calls - 1) / 2]
    let p99 = samples[Int((0.99 * Double(calls)).rounded(.up)) - 1]
    print("\(label): calls=\(calls) median_ns=\(median) p99_ns=\(p99) max_ns=\(samples[calls - 1])")
}

var calls = 1_000_000
if let flag = CommandLine.arguments.firstIndex(of: "--calls"), flag + 1 < CommandLine.arguments.count,
   let value = Int(CommandLine.arguments[flag + 1]), value > 0 {
    calls = value
}

let tracker = ObservabilityTracker(
    sink: DiscardingSink(), clock: SystemClock(),
    common: EventCommon(userId: "u-1", timezoneOffsetMinutes: 480, platform: "ios", appVersion: "2.3.0"))
let timingClock = SystemClock()
let views: [JSONValue] = ["home_view", "library_view", "reader_view", "search_view"]

// The call the latency report reads: two properties, a string and an integer.
measure("track view_loaded (2 properties)", calls: calls) { index in
    tracker.track("view_loaded", ["view_name": views[index & 3], "load_duration_ms": .int(Int64(index & 1023))])
}
// A richer event: five properties of mixed types, one nested.
measure("track api_request_failed (5 properties)", calls: calls) { index in
    tracker.track("api_request_failed", [
        "path": "/learning/summary", "status": 503, "duration_ms": .int(Int64(index & 4095)),
        "retried": true, "headers": ["x-request-id": "r-9"],
    ])
}
// No properties at all: the floor (clock, id, lock, sink).
measure("track app_background (no properties)", calls: calls) { _ in
    tracker.track("app_background")
}
// Its parts: an id, and two properties as JSON text.
var random = Xoshiro256StarStar(seed: 1)
var bytes = 0
measure("  part: event id (UUIDv7)", calls: calls) { index in
    bytes &+= UUIDv7.make(ms: 1_763_700_000_000 + Int64(index), using: &random).utf8.count
}
measure("  part: properties JSON (2 properties)", calls: calls) { index in
    bytes &+= JSONValue.objectText(["view_name": views[index & 3], "load_duration_ms": .int(Int64(index & 1023))]).utf8.count
}
// The clock read alone: the timing overhead included in every figure above.
measure("clock read (timing overhead)", calls: calls) { _ in
    _ = timingClock.nowMs()
}
precondition(bytes > 0)
