import TallyEvents
import TallyStore

extension Reports {
    /// Active seconds and materials per local date with events.
    struct DayActivity {
        var seconds: Int
        var materials: Int
    }

    func dailyActivity(user: String?) throws -> [LocalDate: DayActivity] {
        var days: [LocalDate: DayActivity] = [:]
        try run("learning_days", ["user": user.map { .text($0) } ?? .null]) { row in
            if let date = row.text(0).flatMap(LocalDate.init(iso:)) {
                days[date] = DayActivity(seconds: row.int(1), materials: row.int(2))
            }
        }
        return days
    }

    /// The newest reading event of the user (or of everyone): instant and offset.
    func lastEvent(user: String?) throws -> (ms: Int64, offsetMinutes: Int)? {
        var last: (Int64, Int)?
        try run("learning_last_event", ["user": user.map { .text($0) } ?? .null]) { row in
            last = (row.int64(0), row.int(1))
        }
        return last
    }

    /// Material states of the user, or of all users merged per material, keyed by material.
    func materials(user: String?, material: String? = nil) throws -> [String: MaterialState] {
        var states: [String: MaterialState] = [:]
        try run("learning_materials", ["user": user.map { .text($0) } ?? .null,
                                       "material": material.map { .text($0) } ?? .null]) { row in
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

    /// Today in the report's zone: `--tz`, else the user's newest reading event's offset, else UTC.
    func today(_ context: ReportContext) throws -> LocalDate {
        var offset = context.timezoneOffsetMinutes ?? 0
        if context.timezoneOffsetMinutes == nil, context.user != nil, let last = try lastEvent(user: context.user) {
            offset = last.offsetMinutes
        }
        return LocalDate(instantMs: context.nowMs, offsetMinutes: offset)
    }

    /// The learning summary.
    public func summary(_ context: ReportContext) throws -> LearningSummary {
        let days = try dailyActivity(user: context.user)
        let today = try today(context)
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
        let materials = try materials(user: context.user)
        return LearningSummary(
            totalActiveSeconds: days.values.reduce(0) { $0 + $1.seconds },
            todayActiveSeconds: days[today]?.seconds ?? 0,
            weekActiveSeconds: Self.window(days: 7, endingAt: today).reduce(0) { $0 + (days[$1]?.seconds ?? 0) },
            activeDays: active.count,
            currentStreakDays: current,
            longestStreakDays: longest,
            materialsStarted: materials.count,
            materialsCompleted: materials.values.filter { $0.completions > 0 }.count,
            lastActiveAt: try lastEvent(user: context.user)?.ms)
    }

    /// Active seconds per day of the `days`-day window ending today, with the previous period's total.
    public func trend(_ context: ReportContext, days count: Int) throws -> TrendReport {
        try Self.validate(days: count)
        let days = try dailyActivity(user: context.user)
        let today = try today(context)
        let rows = Self.window(days: count, endingAt: today).map { date in
            TrendReport.Day(date: date, activeSeconds: days[date]?.seconds ?? 0, materials: days[date]?.materials ?? 0)
        }
        let previous = Self.window(days: count, endingAt: today.adding(days: -count))
        return TrendReport(days: rows, totalActiveSeconds: rows.reduce(0) { $0 + $1.activeSeconds },
                           previousPeriodActiveSeconds: previous.reduce(0) { $0 + (days[$1]?.seconds ?? 0) })
    }

    /// One cell per day of the `days`-day window ending today, leveled by quartiles.
    public func heatmap(_ context: ReportContext, days count: Int) throws -> HeatmapReport {
        try Self.validate(days: count)
        let days = try dailyActivity(user: context.user)
        let dates = Self.window(days: count, endingAt: try today(context))
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
    public func continueLearning(_ context: ReportContext) throws -> ContinueLearning? {
        let candidates = try materials(user: context.user).values.filter { $0.completions == 0 }
        let best = candidates.max { a, b in
            if a.last.isNewer(than: b.last) { return false }
            if b.last.isNewer(than: a.last) { return true }
            return b.materialId.utf8.lexicographicallyPrecedes(a.materialId.utf8)
        }
        return best.map {
            ContinueLearning(materialId: $0.materialId, title: $0.title?.value, type: $0.targetType,
                             lastPosition: $0.position?.value, lastReadAt: $0.last.ts)
        }
    }

    /// How far the user (or everyone) got in `materialId`.
    public func progress(_ context: ReportContext, materialId: String) throws -> ReadingProgress {
        guard let state = try materials(user: context.user, material: materialId)[materialId] else {
            return ReadingProgress(materialId: materialId, status: .notStarted, lastPosition: nil, totalActiveSeconds: 0, lastReadAt: nil)
        }
        return ReadingProgress(materialId: materialId, status: state.completions > 0 ? .completed : .inProgress,
                               lastPosition: state.position?.value, totalActiveSeconds: state.activeSeconds,
                               lastReadAt: state.last.ts)
    }
}
