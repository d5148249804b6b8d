import TallyEvents

/// What the store knows of one (user, impression): the groups it was exposed in and its final
/// (newest) feedback. Its contribution to the dislike-rate counters is a function of this state,
/// so a batch updates the counters by the difference between the state before and after it.
package struct ImpressionState {
    package struct Reaction: Equatable {
        package var order: OrderKey
        package var kind: String
        @Bytewise package var reason: String?
        package var group: FineGroup

        package init(order: OrderKey, kind: String, reason: String?, group: FineGroup) {
            self.order = order
            self.kind = kind
            self.reason = reason
            self.group = group
        }
    }

    package var exposureGroups: Set<FineGroup> = []
    package var reaction: Reaction?

    package init() {}

    /// Whether the impression appears in more than one group; then coarser groupings of the
    /// dislike rate cannot be summed from the per-group counters.
    package var spansGroups: Bool {
        var groups = exposureGroups
        if let reaction { groups.insert(reaction.group) }
        return groups.count > 1
    }

    /// This state with a batch's share of the same impression merged in: its exposure groups
    /// added, and its reaction taken when it is newer than the one held.
    package func merging(_ incoming: ImpressionState) -> ImpressionState {
        var after = self
        after.exposureGroups.formUnion(incoming.exposureGroups)
        if let newer = incoming.reaction, reaction.map({ $0.order < newer.order }) ?? true {
            after.reaction = newer
        }
        return after
    }

    /// Adds (`sign` 1) or removes (`sign` -1) this state's share of the counters.
    package func contribute(_ sign: Int, to deltas: inout DislikeDeltas) {
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
