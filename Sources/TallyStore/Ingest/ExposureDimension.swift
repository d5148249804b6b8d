/// The ways `report exposures --by` groups exposures, and the value of each for one exposure.
public enum ExposureDimension: String, Sendable, CaseIterable {
    /// The local date of the exposure.
    case day
    /// The page kind (`pageId`).
    case page
    /// The item shown.
    case item
    /// The model version.
    case model
    /// The feed position.
    case position
}
