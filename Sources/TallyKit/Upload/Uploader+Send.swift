import TallyEvents

extension Uploader {
    /// One attempt at `batch`, and what its answer means for it.
    func send(_ batch: QueuedBatch, nowMs: Int64) async {
        guard let transport = routes[batch.family] else {
            park(batch, error: "no destination is configured for \(batch.family.rawValue) events")
            return
        }
        let body: [UInt8]
        do {
            body = try queue.body(ofBatch: batch.id)
            try queue.markInFlight(batch.id)
        } catch {
            lastError = "\(error)"
            return
        }
        let request = UploadRequest(batchId: batch.id, family: batch.family, ndjson: body, eventCount: batch.eventCount)
        let response: UploadResponse
        do {
            response = try await transport.send(request)
        } catch {
            retry(batch, error: "\(error)", retryAfterMs: nil, nowMs: nowMs)
            return
        }
        let error = "HTTP \(response.status)" + Self.excerpt(response.body)
        switch response.status {
        case 200..<300:
            settle(batch, body: body, answer: BatchAnswer.parse(response.body))
        case 413:
            split(batch, error: error, nowMs: nowMs)
        case 408, 429, 500..<600:
            let retryAfter = response.retryAfter.flatMap { RetryAfter.delayMs($0, nowMs: nowMs) }
            retry(batch, error: error, retryAfterMs: retryAfter, nowMs: nowMs)
        case 400..<500 where transport.clientErrorsDropBatch:
            note { try queue.drop(batch.id) }
            log(UploadLogEntry(kind: .batchDropped, batchId: batch.id, family: batch.family, code: "\(response.status)",
                               message: "\(batch.eventCount) events rejected by the destination: \(error)"))
        case 400..<500:
            park(batch, error: error)
        default:
            retry(batch, error: error, retryAfterMs: nil, nowMs: nowMs)
        }
    }

    /// A 2xx: events rejected with a drop code are dropped and logged, those rejected with any
    /// other code kept in a parked batch, the rest acknowledged.
    private func settle(_ batch: QueuedBatch, body: [UInt8], answer: BatchAnswer?) {
        let rejected = (answer?.rejected ?? []).filter { $0.code != "DUPLICATE_EVENT" }
        guard !rejected.isEmpty else {
            note { try queue.acknowledge(batch.id) }
            return
        }
        let lines = NDJSONLines.ranges(in: body)
        let ids = lines.map { line in body[line].withUnsafeBytes { try? EventValidator.validate($0).get().idempotencyKey } }
        var dropped = Set<Int>(), kept: [Int] = []
        var keptCodes: [String] = []
        for rejection in rejected {
            guard let index = rejection.eventId.flatMap({ ids.firstIndex(of: $0) })
                    ?? rejection.line.map({ $0 - 1 }).flatMap({ ids.indices.contains($0) ? $0 : nil }),
                  !dropped.contains(index), !kept.contains(index) else { continue }
            if BatchAnswer.drops(rejection.code) {
                dropped.insert(index)
                log(UploadLogEntry(kind: .eventDropped, batchId: batch.id, family: batch.family, eventId: ids[index],
                                   code: rejection.code, message: rejection.message ?? rejection.code))
            } else {
                kept.append(index)
                keptCodes.append(rejection.code)
            }
        }
        let error = kept.isEmpty ? nil : "rejected: " + Array(Set(keptCodes)).sorted().joined(separator: ", ")
        note { try queue.acknowledge(batch.id, dropped: dropped, kept: kept.sorted(), error: error) }
        if let error {
            lastError = error
            log(UploadLogEntry(kind: .batchParked, batchId: batch.id, family: batch.family, code: keptCodes.first,
                               message: "\(kept.count) events kept and parked: \(error)"))
        }
    }

    /// A failed attempt: the next one after the backoff (or `Retry-After`), and after the
    /// schedule's last step only at the next flush or network recovery.
    private func retry(_ batch: QueuedBatch, error: String, retryAfterMs: Int64?, nowMs: Int64) {
        let attempt = batch.retryCount + 1
        let next: Int64?
        if let retryAfterMs {
            next = nowMs + min(retryAfterMs, configuration.maxRetryAfterMs)
        } else if attempt <= configuration.backoffMs.count {
            let base = configuration.backoffMs[attempt - 1]
            let extra = Int64(Double(base) * configuration.jitter * Double.random(in: 0..<1, using: &random))
            next = nowMs + base + extra
        } else {
            next = nil
        }
        lastError = error
        note { try queue.reschedule(batch.id, retryCount: attempt, nextAttemptMs: next, error: error) }
        log(UploadLogEntry(kind: .retrying, batchId: batch.id, family: batch.family, code: nil,
                           message: error + (next.map { ", next attempt at \($0)" } ?? ", waiting for the next flush")))
    }

    /// A 413: the batch in two halves, sent again at once; a single event too large is parked.
    private func split(_ batch: QueuedBatch, error: String, nowMs: Int64) {
        var didSplit = false
        note { didSplit = try queue.split(batch.id, nowMs: nowMs) }
        if didSplit {
            log(UploadLogEntry(kind: .batchSplit, batchId: batch.id, family: batch.family, code: "413",
                               message: "\(batch.eventCount) events split in two"))
        } else {
            park(batch, error: error)
        }
    }

    /// Keeps `batch` without retrying it, and says why.
    private func park(_ batch: QueuedBatch, error: String) {
        lastError = error
        note { try queue.park(batch.id, error: error) }
        log(UploadLogEntry(kind: .batchParked, batchId: batch.id, family: batch.family, code: nil, message: error))
    }

    /// `: ` and the first 200 bytes of an answer's body, or nothing when it is empty.
    private static func excerpt(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "" }
        return ": " + String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: [" ", "\n", "\r", "\t"])
    }
}

private extension String {
    /// Without leading and trailing characters of `set`.
    func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
