import TallyEvents

extension Ingestor: ChunkStoring {
    /// Adds every chunk to the current batch and commits it; on a failure the uncommitted
    /// batch is rolled back.
    public func store(group chunks: [ValidatedChunk]) throws -> [[IngestOutcome]] {
        do {
            var outcomes: [[IngestOutcome]] = []
            outcomes.reserveCapacity(chunks.count)
            for chunk in chunks {
                var chunkOutcomes: [IngestOutcome] = []
                chunkOutcomes.reserveCapacity(chunk.entries.count)
                try add(chunk) { chunkOutcomes.append($1) }
                outcomes.append(chunkOutcomes)
            }
            try commit()
            return outcomes
        } catch {
            rollback()
            throw error
        }
    }

    /// Reads every record of `reader` (a request body, say) and validates it, storing nothing:
    /// the whole input is known to be readable before any of it is stored. Origins name `label`.
    ///
    /// - Throws: `EventFileError` when the input cannot be read or inflated, or when a damaged
    ///   element runs on too far to be searched again for the events after it.
    public static func validate(_ reader: EventFileReader, label: String) throws -> ValidatedChunk {
        var chunk = ValidatedChunk(capacity: 64)
        try reader.forEachRecord { record in
            chunk.append(record, origin: RecordOrigin(file: label, line: record.line, element: record.index))
        }
        if let unread = chunk.unread {
            throw EventFileError.unreadAfterDamage(file: label, line: unread.line, bytes: unread.bytes)
        }
        return chunk
    }
}
