import TallyEvents

extension LocalDate {
    /// English weekday abbreviations, Sunday first, as `weekday` indexes them.
    static let weekdaySymbols = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The weekday's English abbreviation: `Mon`.
    var weekdaySymbol: String {
        LocalDate.weekdaySymbols[weekday]
    }

    /// The month's English abbreviation: `Jan`.
    var monthSymbol: String {
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][components.month - 1]
    }
}
