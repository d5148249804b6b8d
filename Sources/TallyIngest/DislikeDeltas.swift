import TallyEvents

/// Changes to the dislike-rate counters gathered over a batch.
package struct DislikeDeltas {
    package struct Counters {
        package var exposed = 0
        package var feedbackOnly = 0
        package var likes = 0
        package var dislikes = 0

        package var isZero: Bool { exposed == 0 && feedbackOnly == 0 && likes == 0 && dislikes == 0 }

        /// Adds `other`'s counts to these.
        package mutating func add(_ other: Counters) {
            exposed += other.exposed
            feedbackOnly += other.feedbackOnly
            likes += other.likes
            dislikes += other.dislikes
        }
    }

    package struct ReasonKey: Hashable {
        package var group: FineGroup
        @Bytewise package var reason: String
    }

    package var groups: [FineGroup: Counters] = [:]
    package var reasons: [ReasonKey: Int] = [:]
    package var spanning = 0

    package init() {}
}
