/// The weekday a heatmap calendar's weeks (its columns) begin on.
public enum WeekStart: String, Sendable, CaseIterable {
    /// Weeks run Sunday to Saturday.
    case sunday
    /// Weeks run Monday to Sunday.
    case monday

    /// The first weekday, as `LocalDate.weekday` counts (0 = Sunday).
    var firstWeekday: Int {
        switch self {
        case .sunday: 0
        case .monday: 1
        }
    }
}
