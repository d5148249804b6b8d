import Foundation
import TallyEvents
import TallyKit

/// Simulated users driving the collection stack under virtual clocks. Each user is a device of
/// their own (queue and reading state in a temporary folder, removed afterwards); every
/// device's uploader appends to `<family>.ndjson` in the output folder through
/// ``NDJSONFileTransport``, so the events reach it only through the real queue and uploader.
/// Half the users (drawn from the seed) are on Android, the others on iOS; the rollout's share
/// of users (drawn too) see its candidate model from its first day. The same configuration
/// writes the same bytes.
@MainActor
public final class Simulation {
    /// The users' ids and time-zone offsets, in order; beyond them the list repeats with a suffix.
    static let people: [(String, Int)] = [
        ("u-sh", 480), ("u-ny", -300), ("u-london", 0), ("u-blr", 330), ("u-tokyo", 540), ("u-berlin", 60),
    ]

    /// What is simulated.
    public let configuration: SimulationConfiguration

    /// A simulation of `configuration`.
    public init(configuration: SimulationConfiguration) {
        self.configuration = configuration
    }

    /// Where the simulated devices keep their queues and reading state: shared memory where the
    /// system has it, else the temporary folder. The devices' kills happen inside this process, so
    /// their files never need to reach the disk, and on a disk every queue commit would wait for
    /// `fsync` (a 120-day run took minutes instead of seconds).
    static var deviceStorage: URL {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
           FileManager.default.isWritableFile(atPath: "/dev/shm") {
            return URL(fileURLWithPath: "/dev/shm")
        }
        return FileManager.default.temporaryDirectory
    }

    /// The files a simulation writes in its output folder, one per event family.
    public static func outputFiles(in output: URL) -> [URL] {
        EventFamily.allCases.map { output.appendingPathComponent("\($0.rawValue).ndjson") }
    }

    /// Runs the simulation into `output` (created if missing; earlier output files replaced)
    /// and answers each user's ground truth, in user order.
    public func run(into output: URL) async throws -> [GroundTruth] {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for file in Self.outputFiles(in: output) where FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
        let scratch = Self.deviceStorage.appendingPathComponent("tally-simulation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var random = Xoshiro256StarStar(seed: configuration.seed)
        let users = configuration.users
        let rolledOut = random.pick(Int((Double(users) * configuration.rollout.share).rounded()), of: users)
        let onAndroid = random.pick(users / 2, of: users)
        var truths: [GroundTruth] = []
        for index in 0..<users {
            let (name, offset) = Self.people[index % Self.people.count]
            let round = index / Self.people.count
            let common = EventCommon(userId: round == 0 ? name : "\(name)-\(round + 1)", timezoneOffsetMinutes: offset,
                                     platform: onAndroid.contains(index) ? "android" : "ios",
                                     appVersion: random.chance(0.5) ? "3.4.0" : "3.5.0")
            let user = SimulatedUser(configuration: configuration, common: common, inRollout: rolledOut.contains(index),
                                     directory: scratch.appendingPathComponent("device-\(index)"), output: output,
                                     random: random.split())
            truths.append(try await user.run())
        }
        return truths
    }
}
