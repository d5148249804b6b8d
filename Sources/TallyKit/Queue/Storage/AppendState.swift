/// What the app's threads change when they enqueue, behind the queue's append lock.
struct AppendState {
    /// The segment records are copied into.
    var active: MappedSegment
    /// Bytes used in the active segment.
    var used = 0
    /// The sequence number of the last event enqueued.
    var sequence: UInt64 = 0
    /// Segments filled since the writer last ran, with their used bytes: the writer syncs and unmaps them.
    var sealed: [(segment: MappedSegment, used: Int)] = []
    /// The used bytes of every live segment but the active one, by number.
    var sealedBytes: [UInt64: Int] = [:]
    /// Records in the segments after the journal's cursor at open, plus records enqueued since.
    var appendedRecords: UInt64 = 0
    /// Events enqueued since open.
    var enqueued: UInt64 = 0
    /// Events whose record could not be written.
    var lostToWriteFailures: UInt64 = 0
    /// Events refused for their size.
    var droppedOversize: UInt64 = 0
    /// The first failure to create a segment, if any.
    var failure: QueueError?
}
