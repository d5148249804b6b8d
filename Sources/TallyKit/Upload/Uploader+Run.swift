extension Uploader {
    /// The production driver: ticks, then sleeps until ``nextDueMs()``, woken early when the
    /// queue holds a batch's worth of events or the network comes back. Returns when the task
    /// running it is cancelled.
    public func run() async {
        let batchSize = configuration.batchSize
        queue.observeCommits { [weak self] pending in
            guard pending >= batchSize, let self else { return }
            Task { await self.wake() }
        }
        reachability.observe { [weak self] reachable in
            guard reachable, let self else { return }
            Task { await self.wakeForNetwork() }
        }
        while !Task.isCancelled {
            await tick()
            let delayMs = max(0, nextDueMs() - clock.nowMs())
            let sleep = Task { _ = try? await Task.sleep(nanoseconds: UInt64(delayMs) * 1_000_000) }
            sleeper = sleep
            await withTaskCancellationHandler { await sleep.value } onCancel: { sleep.cancel() }
        }
    }

    /// Ends the driver's sleep.
    func wake() {
        sleeper?.cancel()
    }

    /// The network came back: flush at the driver's next tick.
    func wakeForNetwork() {
        flushRequested = true
        wake()
    }
}
