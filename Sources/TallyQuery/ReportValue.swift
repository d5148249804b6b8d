/// A cell of a grouped report: what SQL gives back, typed.
public enum ReportValue: Sendable, Equatable {
    /// No value (SQL NULL).
    case null
    /// An integer.
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// Text.
    case text(String)
    /// A structured value given as JSON text (for example `topReasons`:
    /// `[{"reason":"重复看到","count":3}]`): written verbatim in JSON, compactly in tables and CSV.
    case json(String)
}
