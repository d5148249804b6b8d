import TallyRender

extension ReportOptions {
    /// Answers `question` over the store in these options' context and format: the same step
    /// `report serve` takes for its GET endpoints.
    func answer(_ question: ReportQuestion, weekStart: WeekStart = .sunday) throws -> String {
        try reports().answer(question, context: context, renderer: renderer(weekStart: weekStart), format: format)
    }
}
