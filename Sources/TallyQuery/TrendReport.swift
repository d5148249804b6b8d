import TallyEvents

/// Active seconds per day over a window, oldest first, zero-filled (`metrics.md`, trend).
public struct TrendReport: Sendable, Equatable {
    /// One day of the window.
    public struct Day: Sendable, Equatable {
        /// The local date.
        public var date: LocalDate
        /// Active seconds that day.
        public var activeSeconds: Int
        /// Distinct materials read (active seconds > 0) that day.
        public var materials: Int

        /// Creates a day.
        public init(date: LocalDate, activeSeconds: Int, materials: Int) {
            self.date = date
            self.activeSeconds = activeSeconds
            self.materials = materials
        }
    }

    /// The window's days, oldest first.
    public var days: [Day]
    /// Active seconds of the window.
    public var totalActiveSeconds: Int
    /// Active seconds of the same number of days before the window.
    public var previousPeriodActiveSeconds: Int

    /// Creates a trend.
    public init(days: [Day], totalActiveSeconds: Int, previousPeriodActiveSeconds: Int) {
        self.days = days
        self.totalActiveSeconds = totalActiveSeconds
        self.previousPeriodActiveSeconds = previousPeriodActiveSeconds
    }
}
