import TallyEvents

extension DurableQueue {
    /// Puts the events not yet batched into batches of at most `maxEvents` events of one family,
    /// in queue order, unless `maxOpenBatches` batches (parked ones aside) already wait for an answer.
    ///
    /// Reading stops as soon as one family fills a batch, so each call forms at most one batch
    /// per family. Each batch's events are written to a synced batch file and the journal
    /// records the batches (due at `nowMs`) and the new cursor before this returns; segments
    /// wholly behind the cursor are then deleted.
    @discardableResult
    public func formBatches(maxEvents: Int, nowMs: Int64, maxOpenBatches: Int = 4) throws(QueueError) -> [QueuedBatch] {
        precondition(maxEvents > 0, "a batch holds at least one event")
        return try index.withLock { (state) throws(QueueError) -> [QueuedBatch] in
            guard state.journal.batches.filter({ $0.state != .parked }).count < maxOpenBatches else { return [] }
            let (activeId, activeUsed, sealed) = appendState.withLock { ($0.active.id, $0.used, $0.sealedBytes) }
            let ids = sealed.keys.filter { $0 >= state.journal.cursor.segment }.sorted() + [activeId]
            var lines: [EventFamily: [UInt8]] = [:]
            var counts: [EventFamily: Int] = [:]
            var position = state.journal.cursor
            var full = false
            for (index, id) in ids.enumerated() {
                let start = id == position.segment ? position.offset : 0
                _ = try Self.scan(path: segmentsDirectory + "/" + MappedSegment.fileName(id), id: id, from: start,
                                  limit: id == activeId ? activeUsed : sealed[id], quarantineDirectory: quarantineDirectory,
                                  journal: &state.journal) { item in
                    switch item {
                    case .record(_, let family, let json, let end):
                        lines[family, default: []].append(contentsOf: json)
                        lines[family, default: []].append(0x0A)
                        counts[family, default: 0] += 1
                        position = QueuePosition(segment: id, offset: end)
                        full = counts[family] == maxEvents
                    case .corrupt(let range):
                        position = QueuePosition(segment: id, offset: range.upperBound)
                    }
                    return !full
                }
                if full { break }
                if id != activeId { position = QueuePosition(segment: ids[index + 1], offset: 0) }
            }

            var formed: [QueuedBatch] = []
            for family in EventFamily.allCases {
                guard let body = lines[family], let count = counts[family] else { continue }
                let id = state.journal.nextBatchId
                state.journal.nextBatchId += 1
                try POSIXFile.createSynced(batchesDirectory + "/" + Self.batchFileName(id), with: body)
                state.batchBytes[id] = Int64(body.count)
                formed.append(QueuedBatch(id: id, family: family, eventCount: count, nextAttemptMs: nowMs))
            }
            guard !formed.isEmpty || position != state.journal.cursor else { return [] }
            if !formed.isEmpty { try POSIXFile.syncDirectory(batchesDirectory) }
            state.journal.batches += formed
            state.journal.cursor = position
            state.journal.quarantined.removeAll { $0.segment < position.segment }
            try state.journal.save(to: journalPath, directory: directory)
            state.retiredRecords += UInt64(formed.reduce(0) { $0 + $1.eventCount })
            try deleteSegments(before: position.segment)
            return formed
        }
    }

    /// Deletes the sealed segments numbered below `segment` (the cursor has passed them).
    func deleteSegments(before segment: UInt64) throws(QueueError) {
        let dead = appendState.withLock { state -> [UInt64] in
            let dead = state.sealedBytes.keys.filter { $0 < segment }
            for id in dead { state.sealedBytes[id] = nil }
            return dead
        }
        for id in dead { try POSIXFile.remove(segmentsDirectory + "/" + MappedSegment.fileName(id)) }
    }

    /// The batches waiting for an answer, oldest first.
    public func batches() -> [QueuedBatch] {
        index.withLock { state in
            state.journal.batches.map { batch in
                var batch = batch
                if state.inFlight.contains(batch.id) { batch.state = .inFlight }
                return batch
            }
        }
    }

    /// The NDJSON of batch `id`: its events' wire JSON, one a line, the same bytes at every attempt.
    public func body(ofBatch id: UInt64) throws(QueueError) -> [UInt8] {
        guard let body = try POSIXFile.read(batchesDirectory + "/" + Self.batchFileName(id)) else {
            throw .unknownBatch(id)
        }
        return body
    }

    /// Marks batch `id` as being sent (in memory: after a restart every batch is pending).
    public func markInFlight(_ id: UInt64) throws(QueueError) {
        try index.withLock { (state) throws(QueueError) in
            guard state.journal.batches.contains(where: { $0.id == id }) else { throw .unknownBatch(id) }
            state.inFlight.insert(id)
        }
    }

    /// Records the answer to batch `id`: the events at the 0-based lines `dropped` were rejected
    /// for good (counted as ``QueueCounters/droppedRejected``), those at `kept` were refused in a
    /// way retrying cannot change (kept in a new parked batch carrying `error`), the rest were
    /// accepted (counted as ``QueueCounters/acknowledged``). The batch leaves the journal before
    /// its file is deleted, so it is never sent again.
    public func acknowledge(_ id: UInt64, dropped: Set<Int> = [], kept: [Int] = [], error: String? = nil) throws(QueueError) {
        try replace(id) { batch in
            let parts = kept.isEmpty ? [] : [BatchPart(lines: kept, state: .parked, nextAttemptMs: nil, error: error)]
            let settled = Set(kept).union(dropped)
            return (parts, acknowledged: batch.eventCount - settled.count, dropped: dropped.count)
        }
    }

    /// Splits batch `id` in two halves (same order), both due at `nowMs`: the answer to a body
    /// too large. False when it holds a single event.
    public func split(_ id: UInt64, nowMs: Int64) throws(QueueError) -> Bool {
        var splittable = true
        try replace(id) { batch in
            guard batch.eventCount > 1 else {
                splittable = false
                return nil
            }
            let half = batch.eventCount / 2
            return ([BatchPart(lines: Array(0..<half), state: .pending, nextAttemptMs: nowMs, error: nil),
                     BatchPart(lines: Array(half..<batch.eventCount), state: .pending, nextAttemptMs: nowMs, error: nil)],
                    acknowledged: 0, dropped: 0)
        }
        return splittable
    }

    /// Drops batch `id` whole: its destination rejected it for good (counted as
    /// ``QueueCounters/droppedRejected``).
    public func drop(_ id: UInt64) throws(QueueError) {
        try replace(id) { batch in ([], acknowledged: 0, dropped: batch.eventCount) }
    }

    /// Records a failed attempt of batch `id`: its new retry count, when to try next (nil: at
    /// the next flush or network recovery) and the error.
    public func reschedule(_ id: UInt64, retryCount: Int, nextAttemptMs: Int64?, error: String?) throws(QueueError) {
        try update(id) { batch in
            batch.retryCount = retryCount
            batch.nextAttemptMs = nextAttemptMs
            batch.lastError = error
        }
    }

    /// Parks batch `id`: kept, not retried, `error` shown in ``batches()``.
    public func park(_ id: UInt64, error: String) throws(QueueError) {
        try update(id) { batch in
            batch.state = .parked
            batch.nextAttemptMs = nil
            batch.lastError = error
        }
    }

    /// Makes every parked batch pending again, due at `nowMs` (after an app update fixed what
    /// the destination refused, say).
    public func retryParkedBatches(nowMs: Int64) throws(QueueError) {
        try updateAll { batch in
            guard batch.state == .parked else { return false }
            batch.state = .pending
            batch.retryCount = 0
            batch.nextAttemptMs = nowMs
            return true
        }
    }

    /// Makes the pending batches that wait for the next flush due at `nowMs`, their backoff restarted.
    public func makeWaitingBatchesDue(nowMs: Int64) throws(QueueError) {
        try updateAll { batch in
            guard batch.state == .pending, batch.nextAttemptMs == nil else { return false }
            batch.retryCount = 0
            batch.nextAttemptMs = nowMs
            return true
        }
    }

    // MARK: Journal updates

    /// Changes batch `id` with `change`, saves the journal, and ends its in-flight mark.
    private func update(_ id: UInt64, _ change: (inout QueuedBatch) -> Void) throws(QueueError) {
        try index.withLock { (state) throws(QueueError) in
            guard let position = state.journal.batches.firstIndex(where: { $0.id == id }) else { throw .unknownBatch(id) }
            change(&state.journal.batches[position])
            state.inFlight.remove(id)
            try state.journal.save(to: journalPath, directory: directory)
        }
    }

    /// Changes the batches `change` returns true for, and saves the journal when one changed.
    private func updateAll(_ change: (inout QueuedBatch) -> Bool) throws(QueueError) {
        try index.withLock { (state) throws(QueueError) in
            var changed = false
            for position in state.journal.batches.indices where change(&state.journal.batches[position]) {
                changed = true
            }
            if changed { try state.journal.save(to: journalPath, directory: directory) }
        }
    }

    /// Replaces batch `id` by the batches `plan` describes (each a selection of its lines, in
    /// order, written to a new synced file), counting acknowledged and dropped events. The
    /// journal is saved before the old file is deleted. `plan` returning nil changes nothing.
    private func replace(_ id: UInt64,
                         plan: (QueuedBatch) -> (parts: [BatchPart], acknowledged: Int, dropped: Int)?) throws(QueueError) {
        try index.withLock { (state) throws(QueueError) in
            guard let position = state.journal.batches.firstIndex(where: { $0.id == id }) else { throw .unknownBatch(id) }
            let batch = state.journal.batches[position]
            guard let (parts, acknowledged, dropped) = plan(batch) else { return }
            var replacements: [QueuedBatch] = []
            if !parts.isEmpty {
                let body = try body(ofBatch: id)
                let lines = NDJSONLines.ranges(in: body)
                for part in parts {
                    var text: [UInt8] = []
                    for line in part.lines where line < lines.count {
                        text.append(contentsOf: body[lines[line]])
                        text.append(0x0A)
                    }
                    let newId = state.journal.nextBatchId
                    state.journal.nextBatchId += 1
                    try POSIXFile.createSynced(batchesDirectory + "/" + Self.batchFileName(newId), with: text)
                    state.batchBytes[newId] = Int64(text.count)
                    replacements.append(QueuedBatch(id: newId, family: batch.family, eventCount: part.lines.count,
                                                    nextAttemptMs: part.nextAttemptMs, state: part.state,
                                                    lastError: part.error))
                }
                try POSIXFile.syncDirectory(batchesDirectory)
            }
            state.journal.batches.replaceSubrange(position...position, with: replacements)
            state.journal.counters.acknowledged += UInt64(max(0, acknowledged))
            state.journal.counters.droppedRejected += UInt64(dropped)
            state.inFlight.remove(id)
            try state.journal.save(to: journalPath, directory: directory)
            state.batchBytes[id] = nil
            try POSIXFile.remove(batchesDirectory + "/" + Self.batchFileName(id))
        }
    }
}
