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

    /// Adds (`sign` 1) or removes (`sign` -1) this pair's share of the group counters, and
    /// calls `member` with each item and user it gives or takes from its groups.
    func contribute(_ sign: Int, to deltas: inout ExposureDeltas, member: (ExposureDeltas.Member) throws -> Void) rethrows {
        for dimension in ExposureDimension.allCases {
            let group = ExposureDeltas.Group(dimension: dimension, value: value(dimension))
            deltas.groups[group, default: ExposureDeltas.Counters()].add(sign, events: first.events)
            try forEachMember(of: group, member)
        }
    }

    /// The members this pair gives `group` (one of its own groups): its user, and its item
    /// unless the group is the item itself.
    func forEachMember(of group: ExposureDeltas.Group, _ body: (ExposureDeltas.Member) throws -> Void) rethrows {
        if group.dimension != .item {
            try body(ExposureDeltas.Member(group: group, kind: .item, member: item))
        }
        try body(ExposureDeltas.Member(group: group, kind: .user, member: first.user))
    }
}
