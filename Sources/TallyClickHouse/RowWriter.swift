import TallyEvents

/// Writes one JSONEachRow line: `{"column":value,…}\n`.
struct RowWriter {
    private var text = "{"

    /// A string column; nil writes `null`.
    mutating func text(_ name: String, _ value: String?) {
        raw(name, value.map(JSONText.quote) ?? "null")
    }

    /// An integer column; nil writes `null`.
    mutating func number(_ name: String, _ value: Int64?) {
        raw(name, value.map { String($0) } ?? "null")
    }

    /// A floating-point column; nil writes `null`.
    mutating func number(_ name: String, _ value: Double?) {
        raw(name, value.map(JSONText.number) ?? "null")
    }

    /// A column whose JSON value is already written.
    mutating func raw(_ name: String, _ json: String) {
        if text.utf8.count > 1 { text += "," }
        text += "\"" + name + "\":" + json
    }

    /// The line, newline included.
    mutating func finish() -> String {
        text + "}\n"
    }
}
