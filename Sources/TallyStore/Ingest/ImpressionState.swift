/// What the store knows of one (user, impression): the groups it was exposed in and its final
/// (newest) feedback. Its contribution to the dislike-rate counters is a function of this state,
/// so a batch updates the counters by the difference between the state before and after it.
struct ImpressionState {
    struct Reaction: Equatable {
        var order: OrderKey
        var kind: String
        var reason: String?
        var group: FineGroup
    }

    var exposureGroups: Set<FineGroup> = []
    var reaction: Reaction?

    /// Whether the impression appears in more than one group; then coarser groupings of the
    /// dislike rate cannot be summed from the per-group counters.
    var spansGroups: Bool {
        var groups = exposureGroups
        if let reaction { groups.insert(reaction.group) }
        return groups.count > 1
    }

    /// Adds (`sign` 1) or removes (`sign` -1) this state's share of the counters.
    func contribute(_ sign: Int, to deltas: inout DislikeDeltas) {
        if spansGroups { deltas.spanning += sign }
        for group in exposureGroups {
            deltas.groups[group, default: DislikeDeltas.Counters()].exposed += sign
        }
        guard let reaction else { return }
        var counters = deltas.groups[reaction.group, default: DislikeDeltas.Counters()]
        if reaction.kind == "like" { counters.likes += sign }
        if reaction.kind == "dislike" {
            counters.dislikes += sign
            if let reason = reaction.reason {
                deltas.reasons[DislikeDeltas.ReasonKey(group: reaction.group, reason: reason), default: 0] += sign
            }
        }
        if !exposureGroups.contains(reaction.group) { counters.feedbackOnly += sign }
        deltas.groups[reaction.group] = counters
    }
}
