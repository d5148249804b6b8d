/// A line that failed validation: its code, the field at fault and a sentence for people.
public struct EventRejection: Error, Sendable, Equatable {
    /// The rejection code.
    public var code: RejectionCode
    /// The field at fault (dotted path such as `context.feedPosition`), if one is.
    public var field: String?
    /// A one-sentence explanation.
    public var message: String
    /// The event's idempotency key when it could be read, to answer uploaders per event.
    public var eventKey: String?

    /// Creates a rejection.
    public init(code: RejectionCode, field: String? = nil, message: String, eventKey: String? = nil) {
        self.code = code
        self.field = field
        self.message = message
        self.eventKey = eventKey
    }
}
