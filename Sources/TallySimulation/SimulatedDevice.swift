import Foundation
import TallyEvents
import TallyKit
import TallySupport

/// One launch of the app on a simulated device: the durable queue, the uploader and the
/// trackers, all opened from the device's folders on the device's virtual clock. A new
/// launch after a kill or a quit reopens the same folders.
@MainActor
final class SimulatedDevice {
    let clock: ManualClock
    let queue: DurableQueue
    let uploader: Uploader
    let reading: ReadingTracker
    let observability: ObservabilityTracker
    let reachability: ManualReachability
    let offline: Locked<Bool>

    /// Launches the app: opens the queue in `directory/queue` and the reading state in
    /// `directory/reading` (closing a session a killed launch left open), routes every family
    /// through an ``OutageTransport`` to `output/<family>.ndjson`.
    init(directory: URL, output: URL, clock: ManualClock, common: EventCommon, offline: Bool,
         reachable: Bool, random: inout Xoshiro256StarStar) throws {
        self.clock = clock
        queue = try DurableQueue.open(directory: directory.appendingPathComponent("queue").path,
                                      configuration: QueueConfiguration(segmentBytes: 1 << 20))
        let offlineFlag = Locked(offline)
        self.offline = offlineFlag
        reachability = ManualReachability(reachable: reachable)
        var routes: [EventFamily: any UploadTransport] = [:]
        for family in EventFamily.allCases {
            let file = NDJSONFileTransport(path: output.appendingPathComponent("\(family.rawValue).ndjson").path)
            routes[family] = OutageTransport(wrapped: file, offline: offlineFlag)
        }
        uploader = Uploader(queue: queue, routes: routes,
                            configuration: UploadConfiguration(batchSize: 200, flushIntervalMs: 60_000),
                            clock: clock, random: random.split(), reachability: reachability)
        reading = ReadingTracker(sink: queue, clock: clock,
                                 store: try FileReadingStateStore(directory: directory.appendingPathComponent("reading")),
                                 configuration: ReadingTrackerConfiguration(common: common), random: random.split())
        observability = ObservabilityTracker(sink: queue, clock: clock, common: common, random: random.split())
    }

    /// The network goes down (`reachable` false) or only fails (`reachable` true: a captive
    /// portal, the uploader finds out by failing and backing off).
    func startOutage(reachable: Bool) {
        offline.withLock { $0 = true }
        reachability.set(reachable: reachable)
    }

    /// The network works again; the uploader flushes what piled up.
    func endOutage() async {
        offline.withLock { $0 = false }
        reachability.set(reachable: true)
        await uploader.networkBecameReachable()
    }

    /// The app goes to the background (and is later ended by the system while suspended):
    /// trackers and uploader are told, then the queue is closed.
    func quit() async {
        reading.appDidEnterBackground()
        await uploader.appDidEnterBackground()
        queue.close()
    }

    /// The app is killed: nothing is told and nothing flushed; only the queue's writer thread
    /// stops (its mapped pages would survive the process anyway).
    func kill() {
        queue.close()
    }

    /// Uploads until the queue is empty: the network up, flushes repeated past any back-off.
    /// Throws when a thousand flushes leave events behind (a batch the file sink keeps refusing),
    /// since the output would then miss events the ground truth counts.
    func drain() async throws {
        offline.withLock { $0 = false }
        reachability.set(reachable: true)
        defer { queue.close() }
        for _ in 0..<1_000 {
            await uploader.flush()
            let stats = queue.stats
            if stats.pendingEvents == 0 && stats.batches == 0 { return }
            clock.advance(byMs: 10_000)
        }
        let stats = queue.stats
        throw SimulationError(description: "the queue of \(queue.directory) still holds \(stats.pendingEvents + stats.batchedEvents) "
            + "events after 1,000 flushes (last upload error: \(await uploader.lastError ?? "none"))")
    }
}
