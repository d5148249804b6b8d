import TallyEvents
import TallyQuery

extension ClickHouseReports: LearningSource {
    /// Active seconds and materials per local date with events.
    package func dailyActivity(user: String?) throws -> [LocalDate: DayActivity] {
        var days: [LocalDate: DayActivity] = [:]
        for row in try run("learning_days", ["user": QueryValue(user)]).rows {
            if let date = row[0].text.flatMap(LocalDate.init(iso:)) {
                days[date] = DayActivity(seconds: row[1].int, materials: row[2].int)
            }
        }
        return days
    }

    /// The newest reading event of the user (or of everyone): instant and offset.
    package func lastEvent(user: String?) throws -> (ms: Int64, offsetMinutes: Int)? {
        try run("learning_last_event", ["user": QueryValue(user)]).rows.first.map { ($0[0].int64, $0[1].int) }
    }

    /// Material states of the user, or of all users together, keyed by material.
    package func materials(user: String?, material: String?) throws -> [String: MaterialState] {
        let result = try run("learning_materials", ["user": QueryValue(user), "material": QueryValue(material)])
        var states: [String: MaterialState] = [:]
        for row in result.rows {
            func value(_ name: String) -> ReportValue { result.value(row, name) }
            func newest(_ prefix: String) -> MaterialState.Newest {
                MaterialState.Newest(ts: value(prefix + "_ts").int64, seq: value(prefix + "_seq").int64, key: value(prefix + "_key").text ?? "")
            }
            let materialId = value("material_id").text ?? ""
            let progress = value("progress").double ?? -1
            states[materialId] = MaterialState(
                materialId: materialId, activeSeconds: value("active_seconds").int, completions: value("completions").int,
                last: newest("last"), targetType: value("target_type").text ?? "knowledge_source",
                title: value("has_title").int > 0 ? (newest("title"), value("title").text ?? "") : nil,
                position: value("has_position").int > 0
                    ? (newest("position"), MaterialPosition(json: value("position").text ?? "{}", progress: progress < 0 ? nil : progress))
                    : nil)
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
