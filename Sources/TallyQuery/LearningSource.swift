import TallyEvents

/// A store that can tell the learning facts; the reports built on them are shared, so every
/// backend computes "today", streaks, windows and quartiles the same way: a `ReportBackend` that
/// is a `LearningSource` has its five learning reports from the extension below.
public protocol LearningSource {
    /// Active seconds and materials per local date with events (of one user, or all).
    func dailyActivity(user: String?) throws -> [LocalDate: DayActivity]
    /// The newest reading event (of one user, or all): instant and offset.
    func lastEvent(user: String?) throws -> (ms: Int64, offsetMinutes: Int)?
    /// Material states (of one user, or all users merged per material), keyed by material.
    func materials(user: String?, material: String?) throws -> [Bytewise<String>: MaterialState]
}

extension LearningSource {
    /// Today in the report's zone: `--tz`, else the user's newest reading event's offset, else UTC.
    package func today(_ context: ReportContext) throws -> LocalDate {
        LearningFacts.today(context, lastEvent: context.timezoneOffsetMinutes == nil && context.user != nil
                            ? try lastEvent(user: context.user) : nil)
    }

    /// The learning summary.
    package func learningSummary(_ context: ReportContext) throws -> LearningSummary {
        let facts = LearningFacts(days: try dailyActivity(user: context.user),
                                  materials: try materials(user: context.user, material: nil),
                                  lastEvent: try lastEvent(user: context.user))
        return facts.summary(today: LearningFacts.today(context, lastEvent: facts.lastEvent))
    }

    /// Active seconds per day of the `days`-day window ending today, with the previous period's total.
    package func learningTrend(_ context: ReportContext, days count: Int) throws -> TrendReport {
        try ReportLogic.validate(days: count)
        return LearningFacts(days: try dailyActivity(user: context.user)).trend(today: try today(context), days: count)
    }

    /// One cell per day of the `days`-day window ending today, leveled by quartiles.
    package func learningHeatmap(_ context: ReportContext, days count: Int) throws -> HeatmapReport {
        try ReportLogic.validate(days: count)
        return LearningFacts(days: try dailyActivity(user: context.user)).heatmap(today: try today(context), days: count)
    }

    /// The most recently read material not marked as read; nil when there is none.
    package func learningContinue(_ context: ReportContext) throws -> ContinueLearning? {
        LearningFacts(materials: try materials(user: context.user, material: nil)).continueLearning()
    }

    /// How far the user (or everyone) got in `materialId`.
    package func learningProgress(_ context: ReportContext, materialId: String) throws -> ReadingProgress {
        LearningFacts(materials: try materials(user: context.user, material: materialId)).progress(materialId: materialId)
    }
}

extension ReportBackend where Self: LearningSource {
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
