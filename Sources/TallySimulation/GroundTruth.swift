import TallyEvents

/// What one simulated user really did, counted by the simulation itself (not from events): the
/// figures the reports must find again in the uploaded events.
public struct GroundTruth: Sendable, Equatable {
    /// The user's id.
    public var userId: String
    /// The user's time-zone offset (minutes east of UTC), the same on every event.
    public var timezoneOffsetMinutes: Int
    /// The user's platform (`ios` or `android`), the same on every event.
    public var platform: String
    /// The user's app version, the same on every event.
    public var appVersion: String
    /// The first local date on which the user's feed shows the rollout's candidate model; nil
    /// when the user is outside the rollout (or it starts after the period).
    public var candidateFrom: LocalDate?
    /// Seconds really spent reading (a material open, not paused, the app in the foreground), per local date.
    public var secondsByDate: [LocalDate: Int] = [:]
    /// The materials opened at least once.
    public var materialsStarted: Set<String> = []
    /// The materials marked as read.
    public var materialsCompleted: Set<String> = []
    /// The impression ids whose last tap was a like.
    public var liked: Set<String> = []
    /// The impression ids whose last tap was a dislike.
    public var disliked: Set<String> = []
    /// The model of every impression really exposed, by impression id.
    public var modelOfImpression: [String: String] = [:]
    /// The (page instance id, item id) pairs really exposed: fully visible for at least 2 s.
    public var exposures: Set<String> = []
    /// How many `view_loaded` events the app recorded.
    public var viewsLoaded = 0
    /// How many times the app was killed.
    public var kills = 0
    /// How many network outages happened.
    public var outages = 0

    /// A user who did nothing yet.
    public init(userId: String, timezoneOffsetMinutes: Int, platform: String = "ios", appVersion: String = "3.5.0",
                candidateFrom: LocalDate? = nil) {
        self.userId = userId
        self.timezoneOffsetMinutes = timezoneOffsetMinutes
        self.platform = platform
        self.appVersion = appVersion
        self.candidateFrom = candidateFrom
    }

    /// All seconds really read.
    public var totalSeconds: Int {
        secondsByDate.values.reduce(0, +)
    }

    /// The local dates with reading time.
    public var activeDays: Int {
        secondsByDate.values.filter { $0 > 0 }.count
    }

    // MARK: - Per model

    /// The impressions of `model` really exposed.
    public func exposures(of model: String) -> Int {
        modelOfImpression.values.filter { $0 == model }.count
    }

    /// The impressions of `model` whose last tap was a like.
    public func likes(of model: String) -> Int {
        liked.filter { modelOfImpression[$0] == model }.count
    }

    /// The impressions of `model` whose last tap was a dislike.
    public func dislikes(of model: String) -> Int {
        disliked.filter { modelOfImpression[$0] == model }.count
    }
}
