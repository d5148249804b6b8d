import TallyQuery

extension ReportBackend {
    /// Answers `question` in `context`, rendered as `format`: the one step from a question to
    /// its text, shared by the CLI and the HTTP server.
    ///
    /// - Throws: `QueryError.invalidParameter` naming a parameter out of range; store errors.
    public func answer(_ question: ReportQuestion, context: ReportContext, renderer: Renderer, format: OutputFormat) throws -> String {
        switch question {
        case .summary:
            renderer.render(try summary(context), as: format)
        case .trend(let days):
            renderer.render(try trend(context, days: days), as: format)
        case .heatmap(let days):
            renderer.render(try heatmap(context, days: days), as: format)
        case .continueLearning:
            renderer.render(try continueLearning(context), as: format)
        case .progress(let materialId):
            renderer.render(try progress(context, materialId: materialId), as: format)
        case .dislikeRate(let grouping, let topReasons, let filter):
            renderer.render(try dislikeRate(grouping, topReasons: topReasons, user: context.user, filter: filter), as: format)
        case .exposures(let by, let filter):
            renderer.render(try exposures(by: by, user: context.user, filter: filter), as: format)
        case .compare(let baseline, let grouping, let filter):
            renderer.render(comparison: try compare(baseline: baseline, grouping: grouping, user: context.user, filter: filter),
                            baseline: baseline, as: format)
        case .latency(let event, let field, let by):
            renderer.render(try latency(event: event, field: field, by: by, user: context.user), as: format)
        case .top(let event, let by, let limit):
            renderer.render(try top(event: event, by: by, limit: limit, user: context.user), as: format)
        case .catalog(let name, let arguments):
            renderer.render(try ReportCatalog.report(name, on: self, context: context, arguments: arguments), as: format)
        }
    }
}
