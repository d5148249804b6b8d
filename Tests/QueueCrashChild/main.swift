// Enqueues events into a durable queue and answers its batches, reporting each step on stdout
// after it returned, so a test can kill it (SIGKILL) at any point and check the queue it left.
//
// Usage: QueueCrashChild DIRECTORY PREFIX COUNT
// Lines: `E id` (enqueue returned), `S batch id id…` (about to acknowledge), `A batch` (acknowledged).
#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif
import TallyEvents
import TallyKit

func report(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    report("usage: QueueCrashChild DIRECTORY PREFIX COUNT")
    exit(2)
}
let queue = try DurableQueue.open(directory: arguments[1],
                                  configuration: QueueConfiguration(segmentBytes: 64 * 1024, maxBytes: 1 << 30))

func acknowledgeBatches() throws {
    _ = try queue.formBatches(maxEvents: 20, nowMs: 0)
    for batch in queue.batches() {
        let body = try queue.body(ofBatch: batch.id)
        let ids = NDJSONLines.ranges(in: body).compactMap { line in
            body[line].withUnsafeBytes { try? EventValidator.validate($0).get().idempotencyKey }
        }
        report("S \(batch.id) " + ids.joined(separator: " "))
        try queue.acknowledge(batch.id)
        report("A \(batch.id)")
    }
}

for index in 0..<count {
    let id = "\(arguments[2])-\(index)"
    queue.enqueue(.observability(ObservabilityEvent(eventId: id, timestampMs: 1_763_700_000_000 + Int64(index),
                                                    eventName: "tick", sessionId: "s", propertiesJSON: #"{"n":\#(index)}"#)))
    report("E \(id)")
    if index % 37 == 36 { try acknowledgeBatches() }
}
queue.close()
report("DONE")
