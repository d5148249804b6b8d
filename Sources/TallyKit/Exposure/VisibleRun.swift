/// An item's current stretch of continuous qualifying visibility.
struct VisibleRun {
    /// When the stretch began.
    var sinceMs: Int64
    /// The smallest visible share seen during it.
    var minimumShare: Double
    /// The item's recommendation context, as last laid out.
    var context: ExposureContext?
}
