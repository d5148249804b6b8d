import TallyQuery

extension ReportValue {
    /// The integer held, or 0.
    var int: Int { Int(int64) }

    /// The integer held (a whole double too), or 0.
    var int64: Int64 {
        switch self {
        case .int(let v): v
        case .double(let v): Int64(exactly: v.rounded()) ?? 0
        case .text(let v): Int64(v) ?? 0
        case .null, .json: 0
        }
    }

    /// The number held, or nil.
    var double: Double? {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        case .text, .null, .json: nil
        }
    }

    /// The text held, or nil.
    var text: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}
