import TallyIngest

extension Ingestor: EventIngesting {
    /// Stores every chunk in one batch, the way a file's batches are stored (keys claimed, rows
    /// written, then the rollups added up and written), and commits it; on a failure the
    /// uncommitted batch is rolled back.
    public func store(group chunks: [ValidatedChunk]) throws -> [[IngestOutcome]] {
        do {
            var outcomes: [[IngestOutcome]] = []
            outcomes.reserveCapacity(chunks.count)
            var rollups = RollupBatch()
            for chunk in chunks {
                var chunkOutcomes: [IngestOutcome] = []
                chunkOutcomes.reserveCapacity(chunk.entries.count)
                try store(chunk) { chunkOutcomes.append($1) }
                outcomes.append(chunkOutcomes)
                rollups.add(chunk)
            }
            rollups.planExposures()
            try commit(rollupsAhead: rollups)
            return outcomes
        } catch {
            rollback()
            throw error
        }
    }
}
