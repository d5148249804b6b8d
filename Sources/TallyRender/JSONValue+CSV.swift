import TallyEvents

extension JSONValue {
    /// The value as a CSV field (before quoting): strings and numbers as JSON writes them but
    /// unquoted, `null` as an empty field, containers as their JSON text.
    var csvField: String {
        switch self {
        case .null: ""
        case .string(let value): value
        case .verbatim(let text): text
        case .double(let value) where !value.isFinite: ""
        default: text
        }
    }
}
