import TallyEvents

/// The learning summary of `metrics.md`: totals, streaks and materials of one user or of everyone.
public struct LearningSummary: Sendable, Equatable {
    /// Active seconds of all time.
    public var totalActiveSeconds: Int
    /// Active seconds on *today*.
    public var todayActiveSeconds: Int
    /// Active seconds in the 7-day window ending today.
    public var weekActiveSeconds: Int
    /// Local dates with active seconds > 0, all time.
    public var activeDays: Int
    /// The run of active days ending today (or yesterday when today is not active yet).
    public var currentStreakDays: Int
    /// The longest run of consecutive active days.
    public var longestStreakDays: Int
    /// Distinct materials with any event.
    public var materialsStarted: Int
    /// Distinct materials with a `marked_as_read` event.
    public var materialsCompleted: Int
    /// Instant of the newest reading event (ms), if any.
    public var lastActiveAt: Int64?

    /// Creates a summary.
    public init(totalActiveSeconds: Int, todayActiveSeconds: Int, weekActiveSeconds: Int, activeDays: Int,
                currentStreakDays: Int, longestStreakDays: Int, materialsStarted: Int, materialsCompleted: Int,
                lastActiveAt: Int64?) {
        self.totalActiveSeconds = totalActiveSeconds
        self.todayActiveSeconds = todayActiveSeconds
        self.weekActiveSeconds = weekActiveSeconds
        self.activeDays = activeDays
        self.currentStreakDays = currentStreakDays
        self.longestStreakDays = longestStreakDays
        self.materialsStarted = materialsStarted
        self.materialsCompleted = materialsCompleted
        self.lastActiveAt = lastActiveAt
    }
}
