/// What ``Simulation`` simulates: how many users, over which days, from which seed, with which
/// disruptions, and which recommendation models the feed shows.
public struct SimulationConfiguration: Sendable, Equatable {
    /// The number of users, simulated one after another, each on a device of their own.
    public var users: Int
    /// The number of local dates simulated, ending at the local date of `endMs`.
    public var days: Int
    /// The seed every random choice (and every generated id) derives from.
    public var seed: UInt64
    /// The instant the simulation ends at (ms since the epoch); nothing happens after it.
    public var endMs: Int64
    /// Whether the network drops out now and then (transport failures, reachability down).
    public var outages: Bool
    /// Whether the app is killed now and then (no session closed, no final flush).
    public var kills: Bool
    /// The feed's models: a baseline, and a candidate rolled out to part of the users part-way.
    public var rollout: ModelRollout

    /// A configuration; outages and kills are on unless turned off; the rollout is
    /// ``ModelRollout/staged(days:)`` unless given.
    public init(users: Int, days: Int, seed: UInt64, endMs: Int64, outages: Bool = true, kills: Bool = true,
                rollout: ModelRollout? = nil) {
        precondition(users >= 0 && days >= 1, "a simulation needs at least one day")
        self.users = users
        self.days = days
        self.seed = seed
        self.endMs = endMs
        self.outages = outages
        self.kills = kills
        self.rollout = rollout ?? .staged(days: days)
    }
}
