/// A dislike-rate group as events carry it: model version and feed position, either absent.
struct FineGroup: Hashable {
    var modelInfo: String?
    var feedPosition: Int?

    var sqlValues: [SQLValue] {
        [modelInfo.map { .text($0) } ?? .null, feedPosition.map { .int(Int64($0)) } ?? .null]
    }
}
