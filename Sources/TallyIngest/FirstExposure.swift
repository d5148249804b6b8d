/// What is kept of one (page instance, item): its earliest exposure event (what its groups are
/// read from, and its platform and app version: the filters' slice of a pair whose events all
/// lie in one) and how many exposure events the pair had.
package struct FirstExposure: Sendable {
    package var order: OrderKey
    package var user: String
    package var localDate: String
    package var pageId: String?
    package var modelInfo: String?
    package var feedPosition: Int?
    package var platform: String?
    package var appVersion: String?
    package var events: Int

    package init(order: OrderKey, user: String, localDate: String, pageId: String?, modelInfo: String?, feedPosition: Int?,
                 platform: String? = nil, appVersion: String? = nil, events: Int) {
        self.order = order
        self.user = user
        self.localDate = localDate
        self.pageId = pageId
        self.modelInfo = modelInfo
        self.feedPosition = feedPosition
        self.platform = platform
        self.appVersion = appVersion
        self.events = events
    }

    /// The earlier of the two first exposures (this one on a tie), with both event counts
    /// added: a stored pair and a batch's share of it, merged.
    package func merging(_ other: FirstExposure) -> FirstExposure {
        var earlier = other.order < order ? other : self
        earlier.events = events + other.events
        return earlier
    }
}
