import TallyEvents
import TallyStore

extension SQLiteReports: LearningSource {
    /// Active seconds and materials per local date with events.
    package func dailyActivity(user: String?) throws -> [LocalDate: DayActivity] {
        var days: [LocalDate: DayActivity] = [:]
        try run("learning_days", ["user": QueryValue(user)]) { row in
            if let date = row.text(0).flatMap(LocalDate.init(iso:)) {
                days[date] = DayActivity(seconds: row.int(1), materials: row.int(2))
            }
        }
        return days
    }

    /// The newest reading event of the user (or of everyone): instant and offset.
    package func lastEvent(user: String?) throws -> (ms: Int64, offsetMinutes: Int)? {
        var last: (Int64, Int)?
        try run("learning_last_event", ["user": QueryValue(user)]) { row in
            last = (row.int64(0), row.int(1))
        }
        return last
    }

    /// Material states of the user, or of all users merged per material, keyed by material.
    package func materials(user: String?, material: String?) throws -> [String: MaterialState] {
        var states: [String: MaterialState] = [:]
        try run("learning_materials", ["user": QueryValue(user),
                                       "material": QueryValue(material)]) { row in
            let state = MaterialState(row: row)
            if var existing = states[state.materialId] {
                existing.merge(state)
                states[state.materialId] = existing
            } else {
                states[state.materialId] = state
            }
        }
        return states
    }

    /// The learning summary.
    public func summary(_ context: ReportContext) throws -> LearningSummary {
        try learningSummary(context)
    }

    /// Active seconds per day of the `days`-day window ending today, with the previous period's total.
    public func trend(_ context: ReportContext, days count: Int) throws -> TrendReport {
        try learningTrend(context, days: count)
    }

    /// One cell per day of the `days`-day window ending today, leveled by quartiles.
    public func heatmap(_ context: ReportContext, days count: Int) throws -> HeatmapReport {
        try learningHeatmap(context, days: count)
    }

    /// The most recently read material not marked as read; nil when there is none.
    public func continueLearning(_ context: ReportContext) throws -> ContinueLearning? {
        try learningContinue(context)
    }

    /// How far the user (or everyone) got in `materialId`.
    public func progress(_ context: ReportContext, materialId: String) throws -> ReadingProgress {
        try learningProgress(context, materialId: materialId)
    }
}
