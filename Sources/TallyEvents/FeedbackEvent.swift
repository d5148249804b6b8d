/// A reaction on a recommended item (`emotion-feedback-kit`).
public struct FeedbackEvent: Sendable, Equatable {
    /// The reaction; `neutral` takes an earlier reaction back.
    public enum Kind: String, Sendable, CaseIterable {
        /// The user liked the item.
        case like
        /// The user disliked the item.
        case dislike
        /// The user took the reaction back.
        case neutral
    }

    /// Idempotency key (`id` on the wire).
    public var id: String
    /// The instant of the reaction, milliseconds since the Unix epoch.
    public var timestampMs: Int64
    /// The reaction.
    public var kind: Kind
    /// Why the user disliked the item, if said.
    public var reason: String?
    /// `context.impressionId`: the impression reacted to.
    public var impressionId: String
    /// `context.modelInfo`: the model version that ranked the item.
    public var modelInfo: String
    /// `context.feedPosition`: the item's position in the feed, `>= 0`.
    public var feedPosition: Int
    /// `context.businessPayload.itemId`, if sent.
    public var itemId: String?
    /// The `context` object exactly as sent (JSON text), business payload included.
    public var contextJSON: String?
    /// The fields every family shares.
    public var common: EventCommon

    /// Creates a feedback event.
    public init(id: String, timestampMs: Int64, kind: Kind, reason: String? = nil, impressionId: String,
                modelInfo: String, feedPosition: Int, itemId: String? = nil, contextJSON: String? = nil,
                common: EventCommon = EventCommon()) {
        self.id = id
        self.timestampMs = timestampMs
        self.kind = kind
        self.reason = reason
        self.impressionId = impressionId
        self.modelInfo = modelInfo
        self.feedPosition = feedPosition
        self.itemId = itemId
        self.contextJSON = contextJSON
        self.common = common
    }
}
