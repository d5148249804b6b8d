import TallyEvents
import TallyIngest

extension ClickHouseIngestor: EventIngesting {
    /// Keeps the rejected records, queues the events and sends them (in batches of
    /// `batchSize`); an event is accepted when its key was neither earlier in the group nor
    /// found stored. Returns once ClickHouse has acknowledged every insert.
    public func store(group chunks: [ValidatedChunk]) throws -> [[IngestOutcome]] {
        var outcomes: [[IngestOutcome]] = []
        outcomes.reserveCapacity(chunks.count)
        /// Events queued for the next send: where their outcome is, their family and key.
        var queued: [(chunk: Int, entry: Int, event: Event)] = []
        func settle(_ stored: [EventFamily: Set<Bytewise<String>>]) {
            for (chunk, entry, event) in queued where stored[event.family]?.contains(Bytewise(event.idempotencyKey)) == true {
                outcomes[chunk][entry] = .duplicate(key: event.idempotencyKey)
            }
            queued.removeAll(keepingCapacity: true)
        }
        for (index, chunk) in chunks.enumerated() {
            outcomes.append([])
            outcomes[index].reserveCapacity(chunk.entries.count)
            for entry in chunk.entries {
                switch entry.result {
                case .failure(let rejection):
                    chunk.bytes.withUnsafeBytes { bytes in
                        keep(rejection, raw: UnsafeRawBufferPointer(rebasing: bytes[entry.range]), origin: entry.origin)
                    }
                    outcomes[index].append(.rejected(rejection))
                case .success(let event):
                    if add(event) {
                        queued.append((index, outcomes[index].count, event))
                        outcomes[index].append(.accepted(key: event.idempotencyKey))
                    } else {
                        outcomes[index].append(.duplicate(key: event.idempotencyKey))
                    }
                }
                if batchIsFull { settle(try send()) }
            }
        }
        settle(try send())
        return outcomes
    }
}
