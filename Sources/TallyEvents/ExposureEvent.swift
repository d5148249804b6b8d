/// An impression: an item was visible enough, long enough (`exposure-detection`).
public struct ExposureEvent: Sendable, Equatable {
    /// Idempotency key.
    public var eventId: String
    /// Milliseconds since the Unix epoch, client clock.
    public var clientTimestampMs: Int64
    /// The page kind (`home`, `channel`, …), if sent.
    public var pageId: String?
    /// One visit of a page; an item is exposed once per page instance.
    public var pageInstanceId: String
    /// The item shown.
    public var itemId: String
    /// The impression, joining exposures to feedback, if sent.
    public var impressionId: String?
    /// The model version that ranked the item, if sent.
    public var modelInfo: String?
    /// The item's feed position, `>= 0`, if sent.
    public var feedPosition: Int?
    /// The visible share of the item's area, `0...1`, if sent.
    public var visibleRatio: Double?
    /// How long the item stayed visible, if sent.
    public var dwellMs: Int64?
    /// The fields every family shares.
    public var common: EventCommon

    /// Creates an exposure event.
    public init(eventId: String, clientTimestampMs: Int64, pageId: String? = nil, pageInstanceId: String, itemId: String,
                impressionId: String? = nil, modelInfo: String? = nil, feedPosition: Int? = nil,
                visibleRatio: Double? = nil, dwellMs: Int64? = nil, common: EventCommon = EventCommon()) {
        self.eventId = eventId
        self.clientTimestampMs = clientTimestampMs
        self.pageId = pageId
        self.pageInstanceId = pageInstanceId
        self.itemId = itemId
        self.impressionId = impressionId
        self.modelInfo = modelInfo
        self.feedPosition = feedPosition
        self.visibleRatio = visibleRatio
        self.dwellMs = dwellMs
        self.common = common
    }
}
