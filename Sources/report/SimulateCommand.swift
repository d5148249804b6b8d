import ArgumentParser
import Foundation
import TallyEvents
import TallySimulation

/// `report simulate`: simulated users drive the collection stack and upload into a folder.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate users of the app and write the events they upload to a folder.",
        discussion: """
            Each user is a device running the real queue and uploader on a virtual clock over the \
            days ending at --end: reading sessions, feed browsing with exposures and feedback, \
            launches with latency events, network outages and app kills. Half the users are on \
            android, half on ios; the feed shows model rec-v11 until three fifths into the period, \
            then rec-v12 to half of the users (a staged rollout, its users drawn from the seed). \
            The uploads land in \
            DIR/<family>.ndjson (replaced), the same bytes for the same options; ingest them with \
            `report ingest DIR/*.ndjson`.
            """)

    @Option(help: "How many users to simulate.")
    var users = 6

    @Option(help: "How many days to simulate, ending at --end.")
    var days = 120

    @Option(help: "The seed of every random choice.")
    var seed: UInt64 = 1

    @Option(help: "The folder the uploads are written to.")
    var out: String

    @Option(help: "The instant the simulation ends (ISO-8601 or milliseconds since the epoch).")
    var end = "2026-11-20T12:00:00Z"

    func validate() throws {
        guard users >= 1 else { throw ValidationError("--users must be at least 1, got \(users).") }
        guard days >= 1 else { throw ValidationError("--days must be at least 1, got \(days).") }
        guard Instant.parse(nowArgument: end) != nil else {
            throw ValidationError("--end must be an ISO-8601 instant (2026-11-20T12:00:00Z) or milliseconds since the epoch, got \"\(end)\".")
        }
    }

    @MainActor
    func run() async throws {
        let endMs = Instant.parse(nowArgument: end) ?? 0
        let simulation = Simulation(configuration: SimulationConfiguration(users: users, days: days, seed: seed, endMs: endMs))
        let truths = try await simulation.run(into: URL(fileURLWithPath: out))
        let rollout = simulation.configuration.rollout
        for truth in truths {
            let models = truth.candidateFrom.map { "\(rollout.baseline), then \(rollout.candidate) from \($0)" } ?? rollout.baseline
            print("\(truth.userId) (\(truth.platform) \(truth.appVersion); \(models)): \(truth.totalSeconds) s read on \(truth.activeDays) days, "
                + "\(truth.exposures.count) exposures, \(truth.liked.count) likes, \(truth.disliked.count) dislikes, "
                + "\(truth.viewsLoaded) launches, \(truth.kills) kills, \(truth.outages) outages")
        }
    }
}
