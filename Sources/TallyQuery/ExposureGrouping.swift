/// What `report exposures --by` and `GET /feed/exposures?by=` group exposure counts by.
public enum ExposureGrouping: String, Sendable, CaseIterable {
    /// The local date of the exposure.
    case day
    /// The page (`pageId`).
    case page
    /// The item (`itemId`).
    case item
    /// The model version (`modelInfo`).
    case model
    /// The feed position.
    case position

    /// The grouping named `by`.
    ///
    /// - Throws: `QueryError.invalidParameter` naming the values allowed.
    public init(by: String) throws {
        guard let grouping = Self(rawValue: by) else {
            throw QueryError.invalidParameter(name: "by", message: "by must be day, page, item, model or position, got \"\(by)\"")
        }
        self = grouping
    }

    /// The group key's column name.
    public var key: String {
        switch self {
        case .day: "date"
        case .page: "pageId"
        case .item: "itemId"
        case .model: "modelInfo"
        case .position: "feedPosition"
        }
    }
}
