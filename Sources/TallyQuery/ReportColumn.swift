/// A column of a grouped report.
public struct ReportColumn: Sendable, Equatable {
    /// What a column holds, for alignment and formatting.
    public enum Role: Sendable, Equatable {
        /// A group key (left of the measures).
        case key
        /// A count or sum.
        case count
        /// A ratio in `0...1`.
        case ratio
        /// A duration in milliseconds.
        case milliseconds
        /// Any other measure.
        case measure
    }

    /// The camelCase name, as in the JSON answer.
    public var name: String
    /// What the column holds.
    public var role: Role

    /// Creates a column.
    public init(_ name: String, role: Role) {
        self.name = name
        self.role = role
    }
}
