import TallyKit

/// One recommended item of the simulated home feed: a single row of fixed height.
struct RecommendationCard: FeedSection, Equatable {
    /// The row height; the viewport holds exactly three rows.
    static let height = 200.0
    var sectionId: String
    var context: ExposureContext

    var rows: [FeedRow] {
        [FeedRow(itemId: sectionId, height: Self.height, context: context)]
    }
}
