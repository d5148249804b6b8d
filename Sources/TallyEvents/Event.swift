/// One validated event of any family.
public enum Event: Sendable, Equatable {
    /// A reading-session event.
    case reading(ReadingEvent)
    /// A feed reaction.
    case feedback(FeedbackEvent)
    /// An impression.
    case exposure(ExposureEvent)
    /// A named app event.
    case observability(ObservabilityEvent)

    /// The event's family.
    public var family: EventFamily {
        switch self {
        case .reading: .reading
        case .feedback: .feedback
        case .exposure: .exposure
        case .observability: .observability
        }
    }

    /// The idempotency key: `eventId`, or `id` for feedback.
    public var idempotencyKey: String {
        switch self {
        case .reading(let e): e.eventId
        case .feedback(let e): e.id
        case .exposure(let e): e.eventId
        case .observability(let e): e.eventId
        }
    }

    /// The event's instant in milliseconds since the Unix epoch.
    public var timestampMs: Int64 {
        switch self {
        case .reading(let e): e.clientTimestampMs
        case .feedback(let e): e.timestampMs
        case .exposure(let e): e.clientTimestampMs
        case .observability(let e): e.timestampMs
        }
    }

    /// The fields every family shares.
    public var common: EventCommon {
        switch self {
        case .reading(let e): e.common
        case .feedback(let e): e.common
        case .exposure(let e): e.common
        case .observability(let e): e.common
        }
    }
}
