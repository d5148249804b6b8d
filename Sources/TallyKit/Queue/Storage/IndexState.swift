/// The queue's batch bookkeeping, behind its index lock: the journal and what only lives in memory.
struct IndexState {
    /// The persistent part.
    var journal: QueueJournal
    /// Batches being sent now.
    var inFlight: Set<UInt64> = []
    /// Records put into batches, dropped or skipped since open.
    var retiredRecords: UInt64 = 0
    /// The size of each batch file, by batch id.
    var batchBytes: [UInt64: Int64] = [:]
}
