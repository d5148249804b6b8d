import TallyQuery

extension ReadingProgress {
    /// The answer's values in the order of `metrics.md`; a material not started has zeros and nulls.
    var fields: [ReportField] {
        [
            .text("materialId", "material", materialId),
            .text("status", "status", status.rawValue),
        ]
            + MaterialPosition.fields(of: lastPosition)
            + [
                .duration("totalActiveSeconds", "total active", seconds: totalActiveSeconds),
                .instant("lastReadAt", "last read", ms: lastReadAt),
            ]
    }
}
