extension DurableQueue {
    /// Drops the oldest events while the queue holds more than `maxBytes` on disk: first the
    /// oldest batches not being sent (they hold the oldest events), then the oldest segments
    /// (the records in them not yet batched). Every event dropped is counted in
    /// ``QueueCounters/droppedOldest``. The active segment is never dropped.
    func enforceBound() throws(QueueError) {
        try index.withLock { (state) throws(QueueError) in
            while true {
                let (activeId, activeUsed, sealed) = appendState.withLock { ($0.active.id, $0.used, $0.sealedBytes) }
                let total = Int64(activeUsed) + Int64(sealed.values.reduce(0, +)) + state.batchBytes.values.reduce(0, +)
                guard total > configuration.maxBytes else { return }
                if let oldest = state.journal.batches.filter({ !state.inFlight.contains($0.id) }).min(by: { $0.id < $1.id }) {
                    state.journal.batches.removeAll { $0.id == oldest.id }
                    state.journal.counters.droppedOldest += UInt64(oldest.eventCount)
                    try state.journal.save(to: journalPath, directory: directory)
                    state.batchBytes[oldest.id] = nil
                    try POSIXFile.remove(batchesDirectory + "/" + Self.batchFileName(oldest.id))
                    continue
                }
                guard let segment = sealed.keys.min() else { return }
                var dropped: UInt64 = 0
                if segment >= state.journal.cursor.segment {
                    let start = segment == state.journal.cursor.segment ? state.journal.cursor.offset : 0
                    _ = try Self.scan(path: segmentsDirectory + "/" + MappedSegment.fileName(segment), id: segment,
                                      from: start, limit: sealed[segment], quarantineDirectory: quarantineDirectory,
                                      journal: &state.journal) { item in
                        if case .record = item { dropped += 1 }
                        return true
                    }
                }
                let next = sealed.keys.filter { $0 > segment }.min() ?? activeId
                state.journal.cursor = max(state.journal.cursor, QueuePosition(segment: next, offset: 0))
                state.journal.counters.droppedOldest += dropped
                state.journal.quarantined.removeAll { $0.segment <= segment }
                try state.journal.save(to: journalPath, directory: directory)
                state.retiredRecords += dropped
                try deleteSegments(before: next)
            }
        }
    }
}
