import TallyEvents

/// What the store knows of one (user, impression), per slice (local date, platform, app version:
/// the values the feed filters test) and group (model version, feed position): whether an
/// exposure event of the slice names the group, and the slice's newest feedback event where it
/// names the group. Under any filter an impression's exposures are those of the slices kept and
/// its final reaction is the newest of their newest feedback events, so the filtered dislike
/// rate by any grouping of model and position (and the model comparison) needs nothing else of
/// it; with no filter, it is the impression's whole state for the dislike rate (`state`).
///
/// An impression with one (slice, group), nearly every one, adds its share to the counters of
/// its (slice, group, user) `Cell`; one with several (`spans`) is kept whole instead, for the
/// reports to combine as they combine events.
package struct ImpressionSlices: Equatable {
    /// The values of an event that the feed filters test.
    package struct Slice: Hashable, Sendable {
        package var localDate: String
        @Bytewise package var platform: String?
        @Bytewise package var appVersion: String?

        package init(localDate: String, platform: String?, appVersion: String?) {
            self.localDate = localDate
            self.platform = platform
            self.appVersion = appVersion
        }
    }

    /// A slice and a group: model version and feed position (absent on an exposure without them).
    package struct Key: Hashable, Sendable {
        package var slice: Slice
        @Bytewise package var modelInfo: String?
        package var feedPosition: Int?

        package init(slice: Slice, modelInfo: String?, feedPosition: Int?) {
            self.slice = slice
            self.modelInfo = modelInfo
            self.feedPosition = feedPosition
        }

        /// The group (model, position).
        package var group: FineGroup { FineGroup(modelInfo: modelInfo, feedPosition: feedPosition) }
    }

    /// A feedback event: its order (timestamp, then id), `feedbackType` and `reason`.
    package struct Reaction: Equatable, Sendable {
        package var order: OrderKey
        package var kind: String
        @Bytewise package var reason: String?

        package init(order: OrderKey, kind: String, reason: String?) {
            self.order = order
            self.kind = kind
            self.reason = reason
        }
    }

    /// What one (slice, group) holds: an exposure, and the slice's newest feedback when it names the group.
    package struct Fact: Equatable, Sendable {
        package var exposed = false
        package var reaction: Reaction?

        package init(exposed: Bool = false, reaction: Reaction? = nil) {
            self.exposed = exposed
            self.reaction = reaction
        }
    }

    /// The counters of one slice, group and user: the impressions that hold only this (slice, group).
    package struct Cell: Hashable, Sendable {
        package var key: Key
        @Bytewise package var user: String

        package init(key: Key, user: String) {
            self.key = key
            self.user = user
        }
    }

    /// Every (slice, group) of the impression with what it holds: none, the one nearly every
    /// impression has (kept inline, so that noting an event allocates nothing), or several.
    private enum Storage: Equatable {
        case none
        case one(Key, Fact)
        case several([Key: Fact])

        init(_ facts: [Key: Fact]) {
            switch facts.count {
            case 0: self = .none
            case 1: self = .one(facts.first!.key, facts.first!.value)
            default: self = .several(facts)
            }
        }
    }

    private var storage = Storage.none

    package init() {}

    /// Every (slice, group) of the impression with what it holds.
    package var facts: [Key: Fact] {
        get {
            switch storage {
            case .none: [:]
            case .one(let key, let fact): [key: fact]
            case .several(let facts): facts
            }
        }
        set { storage = Storage(newValue) }
    }

    /// The impression's one (slice, group) with what it holds; nil when it has none or several.
    package var only: (key: Key, fact: Fact)? {
        if case .one(let key, let fact) = storage { (key, fact) } else { nil }
    }

    /// The groups (model, position) an exposure event of the impression names, in any slice.
    package var exposureGroups: Set<FineGroup> {
        switch storage {
        case .none: []
        case .one(let key, let fact): fact.exposed ? [key.group] : []
        case .several(let facts): Set(facts.lazy.filter(\.value.exposed).map(\.key.group))
        }
    }

    /// Whether the impression holds more than one (slice, group): then it counts in no cell.
    package var spans: Bool {
        if case .several = storage { true } else { false }
    }

    /// What the impression holds at `key`.
    private subscript(key: Key) -> Fact? {
        get {
            switch storage {
            case .none: nil
            case .one(let held, let fact): held == key ? fact : nil
            case .several(let facts): facts[key]
            }
        }
        set {
            switch storage {
            case .none:
                if let newValue { storage = .one(key, newValue) }
            case .one(let held, let fact):
                if held == key {
                    storage = newValue.map { .one(key, $0) } ?? .none
                } else if let newValue {
                    storage = .several([held: fact, key: newValue])
                }
            case .several(var facts):
                storage = .none
                facts[key] = newValue
                storage = Storage(facts)
            }
        }
    }

    /// Notes an exposure event of the impression.
    package mutating func expose(_ key: Key) {
        var fact = self[key] ?? Fact()
        fact.exposed = true
        self[key] = fact
    }

    /// Notes a feedback event of the impression, which replaces the slice's newest when it is newer.
    package mutating func react(_ reaction: Reaction, at key: Key) {
        if let held = heldReaction(in: key.slice) {
            guard let order = held.fact.reaction?.order, order < reaction.order else { return }
            self[held.key] = held.fact.exposed ? Fact(exposed: true) : nil
        }
        var fact = self[key] ?? Fact()
        fact.reaction = reaction
        self[key] = fact
    }

    /// The (slice, group) of `slice` that holds the slice's newest feedback, if any.
    private func heldReaction(in slice: Slice) -> (key: Key, fact: Fact)? {
        switch storage {
        case .none: nil
        case .one(let key, let fact): key.slice == slice && fact.reaction != nil ? (key, fact) : nil
        case .several(let facts):
            facts.first { $0.key.slice == slice && $0.value.reaction != nil }.map { ($0.key, $0.value) }
        }
    }

    /// This state with a batch's share of the same impression merged in.
    package func merging(_ incoming: ImpressionSlices) -> ImpressionSlices {
        var after = self
        for (key, fact) in incoming.facts {
            if fact.exposed { after.expose(key) }
            if let reaction = fact.reaction { after.react(reaction, at: key) }
        }
        return after
    }

    /// The impression as the dislike rate without filters sees it: the groups of its exposures
    /// and its final reaction, the newest of its slices' newest.
    package var state: ImpressionState {
        var state = ImpressionState()
        state.exposureGroups = exposureGroups
        for (key, fact) in facts {
            if let reaction = fact.reaction, state.reaction.map({ $0.order < reaction.order }) ?? true {
                state.reaction = ImpressionState.Reaction(order: reaction.order, kind: reaction.kind, reason: reaction.reason,
                                                          group: key.group)
            }
        }
        return state
    }

    /// Adds (`sign` 1) or removes (`sign` -1) this state's share of the counters of the dislike
    /// rate without filters (`ImpressionState.contribute`).
    package func contribute(_ sign: Int, to deltas: inout DislikeDeltas) {
        if case .none = storage { return }
        state.contribute(sign, to: &deltas)
    }

    /// Adds (`sign` 1) or removes (`sign` -1) this state's share of `user`'s cell: nothing when it spans.
    package func contribute(_ sign: Int, user: String, to cells: inout [Cell: DislikeDeltas.Counters]) {
        guard let only else { return }
        let cell = Cell(key: only.key, user: user)
        let fact = only.fact
        var counters = cells[cell, default: DislikeDeltas.Counters()]
        if fact.exposed {
            counters.exposed += sign
        } else if fact.reaction != nil {
            counters.feedbackOnly += sign
        }
        if fact.reaction?.kind == "like" { counters.likes += sign }
        if fact.reaction?.kind == "dislike" { counters.dislikes += sign }
        cells[cell] = counters
    }
}
