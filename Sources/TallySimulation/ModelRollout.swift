/// A staged rollout of a recommendation model: every feed shows the `baseline` model until
/// `firstDay`; from that day on, the users of the rollout (a `share` of them, chosen from the
/// seed) see the `candidate` on every feed, the others keep the baseline. Reactions to a
/// `candidate` card are dislikes less often than to a baseline one, so a comparison has a
/// difference to find.
public struct ModelRollout: Sendable, Equatable {
    /// The model every user sees before the rollout, and the users outside it after.
    public var baseline: String
    /// The model rolled out.
    public var candidate: String
    /// The simulated day (0 is the first) from which the users of the rollout see `candidate`.
    public var firstDay: Int
    /// The share of users in the rollout, `0...1` (rounded to whole users).
    public var share: Double
    /// The share of reactions to a baseline card that are dislikes (the rest are likes).
    public var baselineDislikeShare: Double
    /// The share of reactions to a candidate card that are dislikes.
    public var candidateDislikeShare: Double

    /// A rollout of `candidate` to `share` of the users from day `firstDay`.
    public init(baseline: String = "rec-v11", candidate: String = "rec-v12", firstDay: Int, share: Double = 0.5,
                baselineDislikeShare: Double = 0.5, candidateDislikeShare: Double = 0.35) {
        precondition((0...1).contains(share) && (0...1).contains(baselineDislikeShare) && (0...1).contains(candidateDislikeShare),
                     "shares are in 0...1")
        self.baseline = baseline
        self.candidate = candidate
        self.firstDay = firstDay
        self.share = share
        self.baselineDislikeShare = baselineDislikeShare
        self.candidateDislikeShare = candidateDislikeShare
    }

    /// The default rollout of a simulation of `days` days: `rec-v12` to half of the users from
    /// the day three fifths into the period (day 72 of 120).
    public static func staged(days: Int) -> ModelRollout {
        ModelRollout(firstDay: days * 3 / 5)
    }

    /// The model a user sees on simulated day `day`.
    func model(day: Int, inRollout: Bool) -> String {
        inRollout && day >= firstDay ? candidate : baseline
    }

    /// The share of reactions to a card of `model` that are dislikes.
    func dislikeShare(of model: String) -> Double {
        model == candidate ? candidateDislikeShare : baselineDislikeShare
    }
}
