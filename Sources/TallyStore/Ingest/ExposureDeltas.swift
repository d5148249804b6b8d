/// Changes to the exposure-count rows gathered over a batch.
struct ExposureDeltas {
    struct Group: Hashable {
        var dimension: ExposureDimension
        var value: SQLValue
    }

    struct Counters {
        var exposures = 0
        var duplicates = 0
        var uniqueItems = 0
        var uniqueUsers = 0

        var isZero: Bool { exposures == 0 && duplicates == 0 && uniqueItems == 0 && uniqueUsers == 0 }
    }

    struct Member: Hashable {
        var group: Group
        var kind: String
        var member: String
    }

    var groups: [Group: Counters] = [:]
    var members: [Member: Int] = [:]
}
