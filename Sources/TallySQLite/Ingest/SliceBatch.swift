import TallyIngest

/// The changes a batch makes to the per-impression state and the dislike-rate counters
/// (`ImpressionSliceWriter`): each (user, impression) it touches as `ImpressionSlices`, and the
/// (slice, group) pairs it names.
struct SliceBatch {
    var impressions: [UserImpression: ImpressionSlices] = [:]
    /// The groups (model, position) named by an exposure or feedback event of each slice (model
    /// comparison dates).
    var modelSlices: Set<ImpressionSlices.Key> = []

    var isEmpty: Bool { impressions.isEmpty && modelSlices.isEmpty }

    init() {}

    /// An empty batch with room for as many impressions as `previous` held: the next batch of a
    /// file is about as large, and a dictionary that grows by doubling moves every entry again.
    init(sizedLike previous: SliceBatch) {
        impressions.reserveCapacity(previous.impressions.count)
    }

    /// Notes an exposure event: `impression` absent counts only for the group's dates.
    mutating func addExposure(user: String, impression: String?, at key: ImpressionSlices.Key) {
        if key.modelInfo != nil { modelSlices.insert(key) }
        guard let impression else { return }
        impressions[UserImpression(user: user, impression: impression), default: ImpressionSlices()].expose(key)
    }

    /// Notes a feedback event.
    mutating func addFeedback(user: String, impression: String, at key: ImpressionSlices.Key, _ reaction: ImpressionSlices.Reaction) {
        modelSlices.insert(key)
        impressions[UserImpression(user: user, impression: impression), default: ImpressionSlices()].react(reaction, at: key)
    }
}
