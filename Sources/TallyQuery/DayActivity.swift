/// Active seconds and materials read on one local date: what the learning reports are
/// computed from, whichever backend counted them.
public struct DayActivity: Sendable, Equatable {
    /// Active seconds that day.
    package var seconds: Int
    /// Distinct materials with active seconds that day.
    package var materials: Int

    /// Creates a day's activity.
    package init(seconds: Int, materials: Int) {
        self.seconds = seconds
        self.materials = materials
    }
}
