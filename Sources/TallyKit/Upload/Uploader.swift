import TallyEvents

/// Sends the durable queue's batches to their destinations and acts on the answers as `api.md`'s
/// client-behaviour table says.
///
/// Flushes (forms batches from everything waiting and sends them) when `batchSize` events wait,
/// every `flushIntervalMs`, on ``appDidEnterBackground()`` and ``networkBecameReachable()``.
/// Failed attempts back off (`backoffMs` plus seeded jitter, or `Retry-After`), then wait for
/// the next flush.
///
/// Time comes only from the injected clock and nothing runs by itself: ``tick()`` does what is
/// due at `clock.nowMs()`, so tests and simulations drive the uploader with a `ManualClock`.
/// ``run()`` is the production driver: it calls `tick()` and sleeps until the next due time or
/// a wake-up.
public actor Uploader {
    let queue: DurableQueue
    let routes: [EventFamily: any UploadTransport]
    let configuration: UploadConfiguration
    let clock: any TallyClock
    let reachability: any Reachability
    let log: @Sendable (UploadLogEntry) -> Void
    var random: any RandomNumberGenerator & Sendable
    /// When the last flush happened; nil before the first tick.
    var lastFlushMs: Int64?
    /// Set by the flush triggers; the next tick flushes.
    var flushRequested = false
    /// The production driver's sleep, cancelled to wake it.
    var sleeper: Task<Void, Never>?
    /// The last error a destination answered, or why a send failed.
    public internal(set) var lastError: String?

    /// An uploader of `queue`'s batches, each family to its transport in `routes` (a family
    /// without a route keeps its batches parked).
    public init(queue: DurableQueue, routes: [EventFamily: any UploadTransport],
                configuration: UploadConfiguration = UploadConfiguration(), clock: any TallyClock = SystemClock(),
                random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
                reachability: any Reachability = AlwaysReachable(),
                log: @escaping @Sendable (UploadLogEntry) -> Void = { _ in }) {
        self.queue = queue
        self.routes = routes
        self.configuration = configuration
        self.clock = clock
        self.random = random
        self.reachability = reachability
        self.log = log
    }

    // MARK: Triggers

    /// Does what is due now: a flush when `batchSize` events wait, the interval passed or one
    /// was requested; then every batch whose attempt is due, while the network is reachable.
    public func tick() async {
        let now = clock.nowMs()
        let started = lastFlushMs ?? now
        lastFlushMs = started
        let flushing = flushRequested || now >= started + configuration.flushIntervalMs
            || queue.stats.pendingEvents >= configuration.batchSize
        if flushing {
            flushRequested = false
            lastFlushMs = now
            note { try queue.makeWaitingBatchesDue(nowMs: now) }
        }
        guard reachability.isReachable else { return }
        var attempted = Set<UInt64>()
        while true {
            if flushing || queue.stats.pendingEvents >= configuration.batchSize {
                note { _ = try queue.formBatches(maxEvents: configuration.batchSize, nowMs: now,
                                                 maxOpenBatches: configuration.maxOpenBatches) }
            }
            let due = queue.batches().first {
                $0.state == .pending && ($0.nextAttemptMs ?? .max) <= now && !attempted.contains($0.id)
            }
            guard let batch = due else { return }
            attempted.insert(batch.id)
            await send(batch, nowMs: now)
        }
    }

    /// Flushes now: everything waiting is batched and sent, waiting batches retried.
    public func flush() async {
        flushRequested = true
        await tick()
    }

    /// The app went to the background: sync the queue and flush.
    public func appDidEnterBackground() async {
        note { try queue.commit() }
        await flush()
    }

    /// The network came back: flush, batches that were waiting included.
    public func networkBecameReachable() async {
        await flush()
    }

    /// When ``tick()`` next has something to do (ms since the epoch): the next flush or the
    /// earliest scheduled attempt.
    public func nextDueMs() -> Int64 {
        let nextFlush = (lastFlushMs ?? clock.nowMs()) + configuration.flushIntervalMs
        let nextAttempt = queue.batches().filter { $0.state == .pending }.compactMap(\.nextAttemptMs).min()
        return min(nextFlush, nextAttempt ?? .max)
    }

    /// Runs `operation`, keeping its error as ``lastError`` (the queue's file system failed; the
    /// events stay where they are and the next tick tries again).
    func note(_ operation: () throws -> Void) {
        do {
            try operation()
        } catch {
            lastError = "\(error)"
        }
    }
}
