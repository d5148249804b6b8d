/// What the store knows of one (page instance, item): its earliest exposure event and how many
/// events it had. Its contribution to the exposure counters is a function of this state.
struct PairState {
    var first: RollupBatch.FirstExposure
    var item: String

    /// The pair's group in `dimension`; a missing value is the empty blob (see `exposure_groups`).
    func value(_ dimension: ExposureDimension) -> SQLValue {
        switch dimension {
        case .day: .text(first.localDate)
        case .page: first.pageId.map { .text($0) } ?? .emptyBlob
        case .item: .text(item)
        case .model: first.modelInfo.map { .text($0) } ?? .emptyBlob
        case .position: first.feedPosition.map { .int(Int64($0)) } ?? .emptyBlob
        }
    }

    /// Adds (`sign` 1) or removes (`sign` -1) this pair's share of the counters.
    func contribute(_ sign: Int, to deltas: inout ExposureDeltas) {
        for dimension in ExposureDimension.allCases {
            let group = ExposureDeltas.Group(dimension: dimension, value: value(dimension))
            deltas.groups[group, default: ExposureDeltas.Counters()].add(sign, events: first.events)
            if dimension != .item {
                deltas.members[ExposureDeltas.Member(group: group, kind: .item, member: item), default: 0] += sign
            }
            deltas.members[ExposureDeltas.Member(group: group, kind: .user, member: first.user), default: 0] += sign
        }
    }
}
