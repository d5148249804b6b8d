import TallyIngest

/// What a batch's (page instance, item) pairs give the exposure-count rows when every one of
/// them is new to the store: each group's exposures and duplicates, and the distinct members
/// (items, users) the pairs bring their groups. The reading thread computes it with the batch's
/// rollups; `ExposureRollupWriter` uses it when every pair of the batch turns out to be new,
/// and otherwise works pair by pair.
struct ExposurePlan {
    var groups: [ExposureDeltas.Group: ExposureDeltas.Counters] = [:]
    var members: [ExposureDeltas.Member] = []

    init(_ pairs: [PageItem: FirstExposure]) {
        var deltas = ExposureDeltas()
        var seen: Set<ExposureDeltas.Member> = []
        for (key, first) in pairs {
            PairState(first: first, item: key.item).contribute(1, to: &deltas) { member in
                if seen.insert(member).inserted { members.append(member) }
            }
        }
        groups = deltas.groups
    }
}
