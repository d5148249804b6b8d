import TallyEvents
import TallyQuery

extension HeatmapReport {
    /// `{"days": [{"date", "activeSeconds", "level"}, ...], "activeDays", "maxActiveSeconds", "thresholds": [q1, q2, q3]}`.
    var json: JSONValue {
        .object([
            ("days", .array(dayObjects)),
            ("activeDays", .int(Int64(activeDays))),
            ("maxActiveSeconds", .int(Int64(maxActiveSeconds))),
            ("thresholds", .array(thresholds.map { .int(Int64($0)) })),
        ])
    }

    /// One `{"date", "activeSeconds", "level"}` per day of the window, oldest first.
    var dayObjects: [JSONValue] {
        days.map { day in
            .object([
                ("date", .string(day.date.description)),
                ("activeSeconds", .int(Int64(day.activeSeconds))),
                ("level", .int(Int64(day.level))),
            ])
        }
    }

    /// One line per day: `date,activeSeconds,level`.
    var csv: String {
        CSVWriter.document(header: ["date", "activeSeconds", "level"],
                           rows: days.map { [$0.date.description, String($0.activeSeconds), String($0.level)] })
    }
}
