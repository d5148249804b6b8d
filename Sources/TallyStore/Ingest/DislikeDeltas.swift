/// Changes to the dislike-rate counters gathered over a batch.
struct DislikeDeltas {
    struct Counters {
        var exposed = 0
        var feedbackOnly = 0
        var likes = 0
        var dislikes = 0

        var isZero: Bool { exposed == 0 && feedbackOnly == 0 && likes == 0 && dislikes == 0 }
    }

    struct ReasonKey: Hashable {
        var group: FineGroup
        var reason: String
    }

    var groups: [FineGroup: Counters] = [:]
    var reasons: [ReasonKey: Int] = [:]
    var spanning = 0
}
