import TallyEvents

/// What the learning reports are computed from — activity per local date, material states and
/// the newest reading event — and the computation itself, shared by every backend so that
/// streaks, windows and quartiles come out the same whichever store counted the facts.
package struct LearningFacts {
    /// Activity per local date with events.
    package var days: [LocalDate: DayActivity]
    /// Material states, keyed by material.
    package var materials: [Bytewise<String>: MaterialState]
    /// The newest reading event: instant and UTC offset.
    package var lastEvent: (ms: Int64, offsetMinutes: Int)?

    /// Creates the facts.
    package init(days: [LocalDate: DayActivity] = [:], materials: [Bytewise<String>: MaterialState] = [:],
                 lastEvent: (ms: Int64, offsetMinutes: Int)? = nil) {
        self.days = days
        self.materials = materials
        self.lastEvent = lastEvent
    }

    /// Today in the report's zone: `--tz`, else the user's newest reading event's offset, else UTC.
    package static func today(_ context: ReportContext, lastEvent: (ms: Int64, offsetMinutes: Int)?) -> LocalDate {
        var offset = context.timezoneOffsetMinutes ?? 0
        if context.timezoneOffsetMinutes == nil, context.user != nil, let lastEvent {
            offset = lastEvent.offsetMinutes
        }
        return LocalDate(instantMs: context.nowMs, offsetMinutes: offset)
    }

    /// The learning summary of these facts on `today`.
    package func summary(today: LocalDate) -> LearningSummary {
        let active = Set(days.filter { $0.value.seconds > 0 }.keys)
        var current = 0
        var day = active.contains(today) ? today : today.adding(days: -1)
        while active.contains(day) {
            current += 1
            day = day.adding(days: -1)
        }
        var longest = 0
        for date in active where !active.contains(date.adding(days: -1)) {
            var length = 1
            while active.contains(date.adding(days: length)) { length += 1 }
            longest = max(longest, length)
        }
        return LearningSummary(
            totalActiveSeconds: days.values.reduce(0) { $0 + $1.seconds },
            todayActiveSeconds: days[today]?.seconds ?? 0,
            weekActiveSeconds: ReportLogic.window(days: 7, endingAt: today).reduce(0) { $0 + (days[$1]?.seconds ?? 0) },
            activeDays: active.count,
            currentStreakDays: current,
            longestStreakDays: longest,
            materialsStarted: materials.count,
            materialsCompleted: materials.values.filter { $0.completions > 0 }.count,
            lastActiveAt: lastEvent?.ms)
    }

    /// The `count`-day trend ending on `today`.
    package func trend(today: LocalDate, days count: Int) -> TrendReport {
        let rows = ReportLogic.window(days: count, endingAt: today).map { date in
            TrendReport.Day(date: date, activeSeconds: days[date]?.seconds ?? 0, materials: days[date]?.materials ?? 0)
        }
        let previous = ReportLogic.window(days: count, endingAt: today.adding(days: -count))
        return TrendReport(days: rows, totalActiveSeconds: rows.reduce(0) { $0 + $1.activeSeconds },
                           previousPeriodActiveSeconds: previous.reduce(0) { $0 + (days[$1]?.seconds ?? 0) })
    }

    /// The `count`-day heatmap ending on `today`.
    package func heatmap(today: LocalDate, days count: Int) -> HeatmapReport {
        let dates = ReportLogic.window(days: count, endingAt: today)
        let values = dates.map { days[$0]?.seconds ?? 0 }
        let nonZero = values.filter { $0 > 0 }.sorted()
        let thresholds = nonZero.isEmpty ? [] : [0.25, 0.5, 0.75].map { nonZero[Int(($0 * Double(nonZero.count - 1)).rounded(.down))] }
        let cells = zip(dates, values).map { date, seconds in
            HeatmapReport.Day(date: date, activeSeconds: seconds, level: Self.level(seconds, thresholds: thresholds))
        }
        return HeatmapReport(days: cells, activeDays: nonZero.count, maxActiveSeconds: nonZero.last ?? 0, thresholds: thresholds)
    }

    static func level(_ seconds: Int, thresholds: [Int]) -> Int {
        guard seconds > 0, thresholds.count == 3 else { return 0 }
        if seconds <= thresholds[0] { return 1 }
        if seconds <= thresholds[1] { return 2 }
        if seconds <= thresholds[2] { return 3 }
        return 4
    }

    /// The most recently read material not marked as read; nil when there is none.
    package func continueLearning() -> ContinueLearning? {
        let candidates = materials.values.filter { $0.completions == 0 }
        let best = candidates.max { a, b in
            if a.last.isLater(than: b.last) { return false }
            if b.last.isLater(than: a.last) { return true }
            return b.materialId.utf8.lexicographicallyPrecedes(a.materialId.utf8)
        }
        return best.map {
            ContinueLearning(materialId: $0.materialId, title: $0.title?.value, type: $0.targetType,
                             lastPosition: $0.position?.value, lastReadAt: $0.last.ts)
        }
    }

    /// How far readers got in `materialId`.
    package func progress(materialId: String) -> ReadingProgress {
        guard let state = materials[Bytewise(materialId)] else {
            return ReadingProgress(materialId: materialId, status: .notStarted, lastPosition: nil, totalActiveSeconds: 0, lastReadAt: nil)
        }
        return ReadingProgress(materialId: materialId, status: state.completions > 0 ? .completed : .inProgress,
                               lastPosition: state.position?.value, totalActiveSeconds: state.activeSeconds,
                               lastReadAt: state.last.ts)
    }
}
