import TallyEvents
import TallyQuery

extension TrendReport {
    /// `{"days": [{"date", "activeSeconds", "materials"}, ...], "totalActiveSeconds", "previousPeriodActiveSeconds"}`.
    var json: JSONValue {
        .object([
            ("days", .array(dayObjects)),
            ("totalActiveSeconds", .int(Int64(totalActiveSeconds))),
            ("previousPeriodActiveSeconds", .int(Int64(previousPeriodActiveSeconds))),
        ])
    }

    /// One `{"date", "activeSeconds", "materials"}` per day of the window, oldest first.
    var dayObjects: [JSONValue] {
        days.map { day in
            .object([
                ("date", .string(day.date.description)),
                ("activeSeconds", .int(Int64(day.activeSeconds))),
                ("materials", .int(Int64(day.materials))),
            ])
        }
    }

    /// One line per day: `date,activeSeconds,materials`.
    var csv: String {
        CSVWriter.document(header: ["date", "activeSeconds", "materials"],
                           rows: days.map { [$0.date.description, String($0.activeSeconds), String($0.materials)] })
    }
}
