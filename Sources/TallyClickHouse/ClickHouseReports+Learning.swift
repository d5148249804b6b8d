import TallyEvents
import TallyQuery

extension ClickHouseReports: LearningSource {
    /// Active seconds and materials per local date with events.
    public func dailyActivity(user: String?) throws -> [LocalDate: DayActivity] {
        var days: [LocalDate: DayActivity] = [:]
        for row in try run("learning_days", ["user": QueryValue(user)]).rows {
            if let date = row[0].text.flatMap(LocalDate.init(iso:)) {
                days[date] = DayActivity(seconds: row[1].int, materials: row[2].int)
            }
        }
        return days
    }

    /// The newest reading event of the user (or of everyone): instant and offset.
    public func lastEvent(user: String?) throws -> (ms: Int64, offsetMinutes: Int)? {
        try run("learning_last_event", ["user": QueryValue(user)]).rows.first.map { ($0[0].int64, $0[1].int) }
    }

    /// Material states of the user, or of all users together, keyed by material.
    public func materials(user: String?, material: String?) throws -> [Bytewise<String>: MaterialState] {
        let result = try run("learning_materials", ["user": QueryValue(user), "material": QueryValue(material)])
        var states: [Bytewise<String>: MaterialState] = [:]
        for row in result.rows {
            func value(_ name: String) -> ReportValue { result.value(row, name) }
            func newest(_ prefix: String) -> MaterialState.Newest {
                MaterialState.Newest(ts: value(prefix + "_ts").int64, seq: value(prefix + "_seq").int64, key: value(prefix + "_key").text ?? "")
            }
            let materialId = value("material_id").text ?? ""
            let progress = value("progress").double ?? -1
            states[Bytewise(materialId)] = MaterialState(
                materialId: materialId, activeSeconds: value("active_seconds").int, completions: value("completions").int,
                last: newest("last"), targetType: value("target_type").text ?? "knowledge_source",
                title: value("has_title").int > 0 ? (newest("title"), value("title").text ?? "") : nil,
                position: value("has_position").int > 0
                    ? (newest("position"), MaterialPosition(json: value("position").text ?? "{}", progress: progress < 0 ? nil : progress))
                    : nil)
        }
        return states
    }
}
