/// A question the report layer answers, with everything but the context (`ReportContext`):
/// what `report <command>` and the HTTP API's GET endpoints both ask, so that both answer it
/// through `ReportBackend.answer(_:context:renderer:format:)` and print the same bytes.
public enum ReportQuestion: Sendable, Equatable {
    /// `summary`, `GET /learning/summary`.
    case summary
    /// `trend --days N`, `GET /learning/trend?days=N`.
    case trend(days: Int)
    /// `heatmap --days N`, `GET /activity/heatmap?days=N`.
    case heatmap(days: Int)
    /// `continue`, `GET /learning/continue`.
    case continueLearning
    /// `progress M`, `GET /materials/{M}/reading-progress`.
    case progress(materialId: String)
    /// `dislike-rate`, `GET /feed/dislike-rate`.
    case dislikeRate(DislikeGrouping, topReasons: Int, filter: FeedFilter)
    /// `exposures --by B`, `GET /feed/exposures?by=B`.
    case exposures(by: ExposureGrouping, filter: FeedFilter)
    /// `compare --baseline B`, `GET /feed/compare?baseline=B`.
    case compare(baseline: String, grouping: DislikeGrouping, filter: FeedFilter)
    /// `latency --event E --field F --by P`, `GET /observability/latency`.
    case latency(event: String, field: String, by: String)
    /// `top --event E --by K --limit N`.
    case top(event: String, by: String, limit: Int)
    /// A report of `ReportCatalog` answered through the generic path (one defined with `rows`),
    /// with its parameters' values.
    case catalog(name: String, arguments: ReportDefinition.Arguments)
}
