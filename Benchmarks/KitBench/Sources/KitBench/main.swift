// Figures of the durable queue (docs/performance.md, "Collection stack").
//
// Usage: KitBench latency|throughput|memory [EVENTS]
//   latency     ns per `enqueue` on the calling thread, one timing per call: median, p99, p99.9
//   throughput  events/s from the first `enqueue` until `waitUntilDurable` of the last returns
//   memory      peak RSS (VmHWM) with EVENTS events queued and nothing sent (offline)
#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif
import Foundation
import TallyEvents
import TallyKit

func monotonicNs() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Peak resident set size in MiB (Linux `/proc/self/status` VmHWM), nil elsewhere.
func peakRSSMiB() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
    return kb / 1024
}

/// 1,000 distinct observability events, like the ones a kit tracks (about 230 bytes of JSON each).
let samples: [Event] = (0..<1000).map { index in
    .observability(ObservabilityEvent(
        eventId: UUIDv7.make(ms: 1_763_700_000_000 + Int64(index)), timestampMs: 1_763_700_000_000 + Int64(index),
        eventName: "view_loaded", sessionId: "6f1c2a8e-1b7d-4c1e-9a5b-3f0e2d4c6b8a",
        propertiesJSON: #"{"view_name":"home_view","load_duration_ms":\#(300 + index % 400),"app_version":"2.3.0"}"#,
        common: EventCommon(userId: "u-\(index % 50)", platform: "ios", appVersion: "2.3.0")))
}

let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "latency"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let directory = NSTemporaryDirectory() + "kitbench-" + UUID().uuidString
defer { try? FileManager.default.removeItem(atPath: directory) }
let queue = try DurableQueue.open(directory: directory, configuration: QueueConfiguration(maxBytes: 4 << 30))

switch mode {
case "latency":
    for index in 0..<20_000 { queue.enqueue(samples[index % samples.count]) }
    var timings = [UInt32](repeating: 0, count: count)
    for index in 0..<count {
        let event = samples[index % samples.count]
        let start = monotonicNs()
        queue.enqueue(event)
        timings[index] = UInt32(min(monotonicNs() - start, UInt64(UInt32.max)))
    }
    timings.sort()
    func percentile(_ p: Double) -> UInt32 { timings[min(timings.count - 1, Int(Double(timings.count) * p))] }
    print("enqueue latency over \(count) calls: median \(percentile(0.5)) ns, p99 \(percentile(0.99)) ns, "
          + "p99.9 \(percentile(0.999)) ns, max \(timings.last ?? 0) ns")
case "throughput":
    let start = monotonicNs()
    var last = EnqueueReceipt(sequence: 0)
    for index in 0..<count { last = queue.enqueue(samples[index % samples.count]) }
    let enqueued = monotonicNs()
    try await queue.waitUntilDurable(last)
    let synced = monotonicNs()
    let seconds = Double(synced - start) / 1e9
    print("durable throughput: \(count) events in \(String(format: "%.3f", seconds)) s = "
          + "\(Int(Double(count) / seconds)) events/s to disk (enqueue loop \(String(format: "%.3f", Double(enqueued - start) / 1e9)) s, "
          + "\(queue.stats.bytesOnDisk / 1_048_576) MiB on disk)")
case "memory":
    let before = peakRSSMiB() ?? 0
    for index in 0..<count {
        queue.enqueue(samples[index % samples.count])
        if index % 100_000 == 99_999 { try queue.commit() }
    }
    try queue.commit()
    let stats = queue.stats
    print("memory: \(stats.pendingEvents) events queued offline (\(stats.bytesOnDisk / 1_048_576) MiB on disk), "
          + "peak RSS \(String(format: "%.1f", peakRSSMiB() ?? 0)) MiB (\(String(format: "%.1f", before)) MiB after opening the queue)")
default:
    print("usage: KitBench latency|throughput|memory [EVENTS]")
}
queue.close()
