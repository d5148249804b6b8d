import TallyStore

extension IngestCounts {
    /// `accepted`, `duplicates`, `rejected`.
    var fields: [ReportField] {
        [.count("accepted", "accepted", accepted), .count("duplicates", "duplicates", duplicates), .count("rejected", "rejected", rejected)]
    }
}
