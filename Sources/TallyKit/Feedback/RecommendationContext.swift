import TallyEvents

/// Where a recommended item was shown: what every reaction on it is attributed to.
///
/// The feed creates one per displayed item and hands it to the item's ``FeedbackViewModel``;
/// each feedback event carries it whole as its `context` object, so a dislike joins its
/// impression, the model version that ranked the item and the item's position in the feed.
public struct RecommendationContext: Sendable, Equatable {
    /// The impression: one showing of one item (`context.impressionId`).
    public let impressionId: String
    /// The model version that ranked the item (`context.modelInfo`).
    public let modelInfo: String
    /// The item's position in the feed, from 0 (`context.feedPosition`).
    public let feedPosition: Int
    /// Other fields the business wants kept (`context.businessPayload`): the item's id under
    /// `itemId`, a refresh id, … Any JSON.
    public let businessPayload: [String: JSONValue]

    /// A context; throws when a field the wire format requires is empty or out of range, since
    /// a reaction carrying it would be rejected and lost.
    public init(impressionId: String, modelInfo: String, feedPosition: Int,
                businessPayload: [String: JSONValue] = [:]) throws(RecommendationContextError) {
        guard !impressionId.isEmpty else {
            throw RecommendationContextError(field: "impressionId", message: "impressionId must not be empty")
        }
        guard !modelInfo.isEmpty else {
            throw RecommendationContextError(field: "modelInfo", message: "modelInfo must not be empty")
        }
        guard feedPosition >= 0 else {
            throw RecommendationContextError(field: "feedPosition", message: "feedPosition must be >= 0, got \(feedPosition)")
        }
        self.impressionId = impressionId
        self.modelInfo = modelInfo
        self.feedPosition = feedPosition
        self.businessPayload = businessPayload
    }

    /// `businessPayload.itemId` when it is a string.
    public var itemId: String? {
        if case .string(let id) = businessPayload["itemId"] { id } else { nil }
    }

    /// The `context` object as JSON text (keys ascending; `businessPayload` only when not empty).
    public var jsonText: String {
        var members: [String: JSONValue] = [
            "impressionId": .string(impressionId), "modelInfo": .string(modelInfo),
            "feedPosition": .int(Int64(feedPosition)),
        ]
        if !businessPayload.isEmpty {
            members["businessPayload"] = .object(sorting: businessPayload)
        }
        return JSONValue.objectText(members)
    }
}
