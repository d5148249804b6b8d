import Foundation

extension DurableQueue {
    /// Starts the background writer thread; it runs until ``close()``.
    func startWriter() {
        let thread = Thread { [self] in
            while true {
                let closing = signal.waitForWork(intervalMs: configuration.commitIntervalMs)
                do throws(QueueError) {
                    if !closing { prepareSpare() }
                    try commitOnce()
                    if !closing { try enforceBound() }
                } catch {
                    fail(error)
                }
                if closing {
                    discardSpare()
                    fail(.closed)
                    signal.markFinished()
                    return
                }
            }
        }
        thread.name = "TallyKit.DurableQueue.writer"
        thread.start()
    }

    /// Syncs the segments filled since the last commit (then unmaps them) and the new bytes of
    /// the active one, then resumes the callers waiting for events up to the last one enqueued.
    func commitOnce() throws(QueueError) {
        try commitProgress.withLock { (progress) throws(QueueError) in
            let (active, used, sealed, sequence) = appendState.withLock { state in
                defer { state.sealed.removeAll() }
                return (state.active, state.used, state.sealed, state.sequence)
            }
            for (segment, segmentUsed) in sealed {
                try segment.sync(from: segment.id == progress.segment ? progress.offset : 0, to: segmentUsed)
                segment.close()
            }
            let from = active.id == progress.segment ? progress.offset : 0
            if used > from || !sealed.isEmpty {
                try active.sync(from: from, to: used)
            }
            progress = CommitProgress(segment: active.id, offset: used)
            resolveWaiters(upTo: sequence)
        }
        let pending = stats.pendingEvents
        commitObserver.withLock { $0 }?(pending)
    }

    /// Resumes the callers waiting for sequence numbers up to `sequence`.
    private func resolveWaiters(upTo sequence: UInt64) {
        let ready = durability.withLock { state in
            state.committed = max(state.committed, sequence)
            let ready = state.waiters.filter { $0.sequence <= sequence }
            state.waiters.removeAll { $0.sequence <= sequence }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Fails every waiting caller, and every later one, with `error`.
    func fail(_ error: QueueError) {
        let waiting = durability.withLock { state in
            if state.failure == nil { state.failure = error }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiting { waiter.continuation.resume(throwing: error) }
    }

    /// Creates and pre-faults the next segment unless one is ready, so that rolling over on the
    /// app's thread is a pointer swap. A failure here is retried next round; if no spare is ready
    /// when needed, the app's thread creates the segment itself.
    private func prepareSpare() {
        guard spare.withLock({ $0 == nil }) else { return }
        spareCreation.lock()
        defer { spareCreation.unlock() }
        guard spare.withLock({ $0 == nil }), let segment = try? createSegment() else { return }
        segment.prefault()
        spare.withLock { $0 = segment }
    }

    /// Removes the unused spare segment at close.
    private func discardSpare() {
        guard let segment = spare.withLock({ $0.take() }) else { return }
        segment.close()
        try? POSIXFile.remove(segment.path)
    }
}
