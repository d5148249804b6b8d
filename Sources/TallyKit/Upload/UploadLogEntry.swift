import TallyEvents

/// Something the uploader did that an app may want in its logs: a drop, a parked batch, a retry.
public struct UploadLogEntry: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// An event was rejected for good and dropped.
        case eventDropped
        /// A whole batch was rejected for good and dropped.
        case batchDropped
        /// A batch was refused in a way retrying cannot change; kept, not retried.
        case batchParked
        /// An attempt failed; the batch will be retried.
        case retrying
        /// A body was too large; the batch was split in two.
        case batchSplit
    }

    /// What happened.
    public var kind: Kind
    /// The batch concerned.
    public var batchId: UInt64
    /// Its family.
    public var family: EventFamily
    /// The event concerned, for ``Kind/eventDropped``.
    public var eventId: String?
    /// The rejection code or HTTP status.
    public var code: String?
    /// A sentence for humans.
    public var message: String
}
