import TallyEvents
import TallyQuery

extension ReportValue {
    /// The value as JSON writes it: integers as integers, doubles in full precision.
    var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .text(let value): .string(value)
        case .json(let text): .verbatim(text)
        }
    }

    /// Whether the value is a number (a column of numbers is right-aligned).
    var isNumber: Bool {
        switch self {
        case .int, .double: true
        case .null, .text, .json: false
        }
    }

    /// What a table shows in a column of `role`: ratios as percentages (`8.3%`), milliseconds
    /// with their unit (`407 ms`), other numbers, text and JSON as they are, null as `-`.
    func display(as role: ReportColumn.Role) -> String {
        switch (self, role) {
        case (.null, _): Readable.missing
        case (.int(let value), .ratio): Readable.percent(Double(value))
        case (.double(let value), .ratio): Readable.percent(value)
        case (.int(let value), .milliseconds): "\(value) ms"
        case (.double(let value), .milliseconds): Readable.milliseconds(value)
        case (.int(let value), _): String(value)
        case (.double(let value), _): value.description
        case (.text(let value), _), (.json(let value), _): value
        }
    }
}
