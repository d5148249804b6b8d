import TallyEvents

/// A dislike-rate group as events carry it: model version and feed position, either absent.
package struct FineGroup: Hashable, Sendable {
    @Bytewise package var modelInfo: String?
    package var feedPosition: Int?

    package init(modelInfo: String?, feedPosition: Int?) {
        self.modelInfo = modelInfo
        self.feedPosition = feedPosition
    }
}
