import TallyEvents
import TallyQuery

extension SQLiteReports: LearningSource {
    /// Active seconds and materials per local date with events.
    public func dailyActivity(user: String?) throws -> [LocalDate: DayActivity] {
        var days: [LocalDate: DayActivity] = [:]
        try run("learning_days", ["user": QueryValue(user)]) { row in
            if let date = row.text(0).flatMap(LocalDate.init(iso:)) {
                days[date] = DayActivity(seconds: row.int(1), materials: row.int(2))
            }
        }
        return days
    }

    /// The newest reading event of the user (or of everyone): instant and offset.
    public func lastEvent(user: String?) throws -> (ms: Int64, offsetMinutes: Int)? {
        var last: (Int64, Int)?
        try run("learning_last_event", ["user": QueryValue(user)]) { row in
            last = (row.int64(0), row.int(1))
        }
        return last
    }

    /// Material states of the user, or of all users merged per material, keyed by material.
    public func materials(user: String?, material: String?) throws -> [Bytewise<String>: MaterialState] {
        var states: [Bytewise<String>: MaterialState] = [:]
        try run("learning_materials", ["user": QueryValue(user),
                                       "material": QueryValue(material)]) { row in
            let state = MaterialState(row: row)
            let key = Bytewise(state.materialId)
            if var existing = states[key] {
                existing.merge(state)
                states[key] = existing
            } else {
                states[key] = state
            }
        }
        return states
    }
}
