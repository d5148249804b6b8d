import Foundation
import TallyEvents
import TallySupport
import TallyTestSupport
@testable import TallyKit

/// A queue in a temporary folder, an in-memory destination, a manual clock and a seeded uploader.
struct UploaderHarness {
    let directory = QueueFixtures.directory()
    let queue: DurableQueue
    let transport: InMemoryTransport
    let clock = ManualClock(startMs: 1_763_700_000_000)
    let reachability = ManualReachability()
    let uploader: Uploader
    let logged = Locked<[UploadLogEntry]>([])

    /// A harness whose every family goes to one in-memory destination.
    init(configuration: UploadConfiguration = UploadConfiguration(), seed: UInt64 = 42,
         clientErrorsDropBatch: Bool = false, routes: [EventFamily]? = nil) throws {
        queue = try DurableQueue.open(directory: directory)
        let transport = InMemoryTransport(clientErrorsDropBatch: clientErrorsDropBatch)
        self.transport = transport
        let families = routes ?? EventFamily.allCases
        let logged = logged
        uploader = Uploader(queue: queue, routes: Dictionary(uniqueKeysWithValues: families.map { ($0, transport as any UploadTransport) }),
                            configuration: configuration, clock: clock, random: SplitMix64(seed: seed),
                            reachability: reachability, log: { entry in logged.withLock { $0.append(entry) } })
    }

    /// Closes the queue and removes its folder.
    func tearDown() {
        queue.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The event ids of every request sent, one array per request.
    var sentIds: [[String]] {
        transport.requests.map { QueueFixtures.ids(in: $0.ndjson) }
    }

    /// A 200 answer with `body`.
    static func ok(_ body: String) -> InMemoryTransport.Answer {
        .respond(UploadResponse(status: 200, body: Array(body.utf8)))
    }

    /// An answer with `status` and optional `Retry-After`.
    static func status(_ status: Int, retryAfter: String? = nil) -> InMemoryTransport.Answer {
        .respond(UploadResponse(status: status, retryAfter: retryAfter, body: Array("{\"error\":\"x\"}".utf8)))
    }
}
