import TallyQuery

extension LearningSummary {
    /// The summary's values in the order of `metrics.md`; seconds shown as durations.
    var fields: [ReportField] {
        [
            .duration("totalActiveSeconds", "total active", seconds: totalActiveSeconds),
            .duration("todayActiveSeconds", "today", seconds: todayActiveSeconds),
            .duration("weekActiveSeconds", "last 7 days", seconds: weekActiveSeconds),
            .count("activeDays", "active days", activeDays),
            .count("currentStreakDays", "current streak", currentStreakDays, unit: "day"),
            .count("longestStreakDays", "longest streak", longestStreakDays, unit: "day"),
            .count("materialsStarted", "materials started", materialsStarted),
            .count("materialsCompleted", "materials completed", materialsCompleted),
            .instant("lastActiveAt", "last active", ms: lastActiveAt),
        ]
    }
}
