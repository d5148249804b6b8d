/// Who waits for which sequence number to reach the disk, behind its own lock.
struct DurabilityState {
    /// Every event up to this sequence number is synced.
    var committed: UInt64 = 0
    /// Callers waiting, with the sequence number they wait for.
    var waiters: [(sequence: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    /// Set once the disk failed or the queue closed: waiting throws it.
    var failure: QueueError?
}
