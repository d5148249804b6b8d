import TallyQuery

extension ContinueLearning {
    /// The answer's values in the order of `metrics.md`; with nothing to continue, `type` is
    /// `none` and the others are null.
    static func fields(of next: ContinueLearning?) -> [ReportField] {
        [
            .text("type", "type", next?.type ?? "none"),
            .text("materialId", "material", next?.materialId),
            .text("title", "title", next?.title),
        ]
            + MaterialPosition.fields(of: next?.lastPosition)
            + [.instant("lastReadAt", "last read", ms: next?.lastReadAt)]
    }
}
