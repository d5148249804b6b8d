/// Carries a batch to its destination. Throwing means no answer came (no network, timeout,
/// connection lost): the uploader keeps the batch and retries with backoff.
public protocol UploadTransport: Sendable {
    /// Sends `request` and returns the destination's answer.
    func send(_ request: UploadRequest) async throws -> UploadResponse

    /// Whether a 4xx answer to a whole batch (other than 408, 413, 429) means "drop and count it"
    /// rather than `api.md`'s "keep it, stop retrying, surface the error". ClickHouse answers 4xx
    /// to rows it cannot parse, which no retry will change.
    var clientErrorsDropBatch: Bool { get }
}

extension UploadTransport {
    /// Keep the batch on a 4xx, as `api.md` prescribes.
    public var clientErrorsDropBatch: Bool { false }
}
