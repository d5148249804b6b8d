import TallyEvents

/// One cell per day of a window with a level 0...4 (`metrics.md`, heatmap).
public struct HeatmapReport: Sendable, Equatable {
    /// One day of the window.
    public struct Day: Sendable, Equatable {
        /// The local date.
        public var date: LocalDate
        /// Active seconds that day.
        public var activeSeconds: Int
        /// 0 for no activity, else 1...4 by quartile of the window's non-zero days.
        public var level: Int

        /// Creates a cell.
        public init(date: LocalDate, activeSeconds: Int, level: Int) {
            self.date = date
            self.activeSeconds = activeSeconds
            self.level = level
        }
    }

    /// The window's days, oldest first.
    public var days: [Day]
    /// Days of the window with activity.
    public var activeDays: Int
    /// The largest day of the window.
    public var maxActiveSeconds: Int
    /// `[q1, q2, q3]` of the window's non-zero days; empty when there are none.
    public var thresholds: [Int]

    /// Creates a heatmap.
    public init(days: [Day], activeDays: Int, maxActiveSeconds: Int, thresholds: [Int]) {
        self.days = days
        self.activeDays = activeDays
        self.maxActiveSeconds = maxActiveSeconds
        self.thresholds = thresholds
    }
}
