/// What a destination answered: an HTTP status, the `Retry-After` header if any, and the body.
public struct UploadResponse: Sendable, Equatable {
    /// The HTTP status (transports without HTTP answer 200 once the batch is stored).
    public var status: Int
    /// The `Retry-After` header: seconds, or an HTTP date.
    public var retryAfter: String?
    /// The body; a 200 body is `api.md`'s `{"accepted", "duplicates", "rejected"}` or empty
    /// (everything accepted).
    public var body: [UInt8]

    /// An answer.
    public init(status: Int, retryAfter: String? = nil, body: [UInt8] = []) {
        self.status = status
        self.retryAfter = retryAfter
        self.body = body
    }

    /// 200 with an empty body: everything accepted.
    public static let accepted = UploadResponse(status: 200)
}
