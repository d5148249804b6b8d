/// The four kinds of event Tally collects, told apart by their fields (`events.md`).
public enum EventFamily: String, Sendable, CaseIterable, Codable {
    /// Reading-session events of the learning app (`materialId` + a reading `eventType`).
    case reading
    /// Like / dislike / neutral reactions on the recommendation feed (`feedbackType`).
    case feedback
    /// Impressions of feed items (`eventType == "exposure"`).
    case exposure
    /// Named app events with free-form properties (`eventName`).
    case observability
}
