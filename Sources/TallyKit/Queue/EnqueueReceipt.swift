/// Proof that an event was handed to an ``EventSink``: its position in the sink's order.
public struct EnqueueReceipt: Sendable, Hashable, Comparable {
    /// The event's sequence number in its sink, counted from 1.
    public let sequence: UInt64

    /// A receipt for the `sequence`-th event of a sink.
    public init(sequence: UInt64) {
        self.sequence = sequence
    }

    /// Orders receipts by sequence.
    public static func < (lhs: EnqueueReceipt, rhs: EnqueueReceipt) -> Bool {
        lhs.sequence < rhs.sequence
    }
}
