import Foundation
import TallyEvents
import TallyQuery

/// The one place where values become ClickHouse SQL text. ClickHouse 18.16 has no server-side
/// query parameters, so the queries are written in the parameter syntax of later releases,
/// `{name:Type}`, and each placeholder is replaced here by a literal of that type: strings are
/// quoted with every quote, backslash and control byte escaped; numbers, dates and arrays are
/// checked before they are written. Placeholders inside string literals, quoted identifiers and
/// comments are left alone.
public enum ClickHouseSQL {
    /// `text` as a ClickHouse string literal: `'…'` with `\`, `'` and control bytes escaped.
    public static func literal(_ text: String) -> String {
        var out = "'"
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }

    /// `name` as a database or table name: letters, digits and `_`, not starting with a digit.
    public static func identifier(_ name: String) throws -> String {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name.unicodeScalars.count <= 200,
              name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
        else {
            throw QueryError.invalidParameter(name: "clickhouse-database", message: "a database name is letters, digits and _, not starting with a digit, got \"\(name)\"")
        }
        return name
    }

    /// `sql` with every `{name:Type}` placeholder replaced by the literal of `parameters[name]`.
    /// A missing parameter throws when `strict` (a misspelled name is one; the reports bind
    /// strictly), else is NULL, allowed only for `Nullable(…)` types (ad hoc SQL).
    public static func bind(_ sql: String, _ parameters: [String: QueryValue], strict: Bool = false) throws -> String {
        let s = Array(sql.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        func copy(until end: Int) {
            out.append(contentsOf: s[i..<min(end, s.count)])
            i = min(end, s.count)
        }
        while i < s.count {
            let c = s[i]
            if c == "'" || c == "\"" || c == "`" {
                var j = i + 1
                while j < s.count, s[j] != c {
                    j += s[j] == "\\" ? 2 : 1
                }
                copy(until: j + 1)
            } else if c == "-", i + 1 < s.count, s[i + 1] == "-" {
                var j = i
                while j < s.count, s[j] != "\n" { j += 1 }
                copy(until: j)
            } else if c == "/", i + 1 < s.count, s[i + 1] == "*" {
                var j = i + 2
                while j + 1 < s.count, !(s[j] == "*" && s[j + 1] == "/") { j += 1 }
                copy(until: j + 2)
            } else if c == "{", let (name, type, end) = placeholder(s, at: i) {
                if strict, parameters[name] == nil {
                    throw QueryError.invalidParameter(name: name, message: "the query takes {\(name):\(type)}, which was not given")
                }
                out.append(contentsOf: try value(parameters[name] ?? .null, as: type, name: name).unicodeScalars)
                i = end
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }

    /// `{name:Type}` at `start`: the name, the type and the index past `}`.
    private static func placeholder(_ s: [Unicode.Scalar], at start: Int) -> (String, String, Int)? {
        var j = start + 1
        var name = String.UnicodeScalarView()
        while j < s.count, isWord(s[j]) {
            name.append(s[j])
            j += 1
        }
        guard !name.isEmpty, j < s.count, s[j] == ":" else { return nil }
        j += 1
        var type = String.UnicodeScalarView()
        while j < s.count, s[j] != "}" {
            guard isWord(s[j]) || s[j] == "(" || s[j] == ")" else { return nil }
            type.append(s[j])
            j += 1
        }
        guard j < s.count, !type.isEmpty else { return nil }
        return (String(name), String(type), j + 1)
    }

    private static func isWord(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_"
    }

    /// The literal of `value` as ClickHouse type `type`.
    static func value(_ value: QueryValue, as type: String, name: String) throws -> String {
        if type.hasPrefix("Nullable("), type.hasSuffix(")") {
            if case .null = value { return "NULL" }
            return try self.value(value, as: String(type.dropFirst(9).dropLast()), name: name)
        }
        func invalid(_ what: String) -> QueryError {
            .invalidParameter(name: name, message: "\(name) must be \(what), got \(describe(value))")
        }
        switch type {
        case "String":
            switch value {
            case .text(let v): return literal(v)
            case .int(let v): return literal(String(v))
            case .double(let v): return literal(JSONText.number(v))
            case .null: throw invalid("given")
            }
        case "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64":
            let number: Int64?
            switch value {
            case .int(let v): number = v
            case .text(let v): number = Int64(v)
            case .double(let v): number = v == v.rounded() && abs(v) < 9e18 ? Int64(v) : nil
            case .null: number = nil
            }
            guard let number, !(type.hasPrefix("U") && number < 0) else { throw invalid("an integer") }
            return number < 0 ? "(\(number))" : String(number)
        case "Float32", "Float64":
            switch value {
            case .int(let v): return v < 0 ? "(\(v))" : String(v)
            case .double(let v) where v.isFinite: return v < 0 ? "(\(v))" : "\(v)"
            case .text(let v) where Double(v)?.isFinite == true: return try self.value(.double(Double(v)!), as: type, name: name)
            default: throw invalid("a number")
            }
        case "Date":
            guard case .text(let v) = value, LocalDate(iso: v) != nil else { throw invalid("a date YYYY-MM-DD") }
            return literal(v)
        case "Array(Int64)":
            guard case .text(let v) = value, let numbers = integers(v) else { throw invalid("an array of integers such as [0,5]") }
            return "CAST([" + numbers.map(String.init).joined(separator: ",") + "] AS Array(Int64))"
        default:
            throw QueryError.invalidParameter(name: name, message: "the placeholder's type \(type) is not one Tally binds (String, Int64, Float64, Date, Array(Int64), Nullable(…))")
        }
    }

    /// `[1, -2, 3]` as integers; nil unless it is exactly such a list.
    private static func integers(_ text: String) -> [Int64]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
        let inner = trimmed.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
        if inner.isEmpty { return [] }
        var numbers: [Int64] = []
        for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
            guard let n = Int64(part.trimmingCharacters(in: .whitespaces)) else { return nil }
            numbers.append(n)
        }
        return numbers
    }

    private static func describe(_ value: QueryValue) -> String {
        switch value {
        case .null: "nothing"
        case .int(let v): String(v)
        case .double(let v): JSONText.number(v)
        case .text(let v): JSONText.quote(v)
        }
    }
}
