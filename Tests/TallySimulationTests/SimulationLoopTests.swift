import Foundation
import TallyEvents
import TallyIngest
import TallyQuery
import TallySQLite
import TallySimulation
import TallyTestSupport
import Testing

/// The simulation's ground truth against what the reports compute from the events it uploaded,
/// with outages and kills on.
@MainActor
struct SimulationLoopTests {
    /// 2026-11-20T12:00:00Z.
    static let endMs: Int64 = 1_795_176_000_000
    static let configuration = SimulationConfiguration(users: 4, days: 20, seed: 7, endMs: endMs)

    private static func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tally-sim-test-\(name)-\(UUID().uuidString)")
    }

    /// Ingests the simulation's files into a fresh store; fails on any rejected line.
    private static func ingest(_ output: URL, into directory: URL) throws -> EventStore {
        let store = try EventStore(path: directory.appendingPathComponent("sim.sqlite").path)
        let ingestor = try Ingestor(store: store)
        var rejections: [String] = []
        for file in Simulation.outputFiles(in: output) where FileManager.default.fileExists(atPath: file.path) {
            _ = try ingestor.ingest(file: file.path) { origin, rejection in rejections.append("\(origin): \(rejection)") }
        }
        #expect(rejections.isEmpty, "\(rejections.prefix(3))")
        return store
    }

    /// The sum of the integer column `name` over the report's rows.
    private static func sum(_ report: GroupedReport, _ name: String) -> Int {
        guard let column = report.columns.firstIndex(where: { $0.name == name }) else { return -1 }
        return report.rows.reduce(0) { total, row in
            if case .int(let value) = row[column] { return total + Int(value) }
            return total
        }
    }

    @Test func theReportsFindTheGroundTruthInTheUploadedEvents() async throws {
        let directory = Self.scratch("loop")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let truths = try await Simulation(configuration: Self.configuration).run(into: output)
        let reports = SQLiteReports(store: try Self.ingest(output, into: directory))

        #expect(truths.count == 4)
        #expect(truths.map(\.kills).reduce(0, +) > 0, "the run has kills")
        #expect(truths.map(\.outages).reduce(0, +) > 0, "the run has outages")
        for truth in truths {
            let user = truth.userId
            let context = ReportContext(user: user, nowMs: Self.endMs)
            let summary = try reports.summary(context)
            #expect(truth.totalSeconds > 0)
            #expect(summary.totalActiveSeconds == truth.totalSeconds, "\(user)")
            #expect(summary.activeDays == truth.activeDays, "\(user)")
            #expect(summary.materialsStarted == truth.materialsStarted.count, "\(user)")
            #expect(summary.materialsCompleted == truth.materialsCompleted.count, "\(user)")

            let trend = try reports.trend(context, days: Self.configuration.days)
            let heatmap = try reports.heatmap(context, days: Self.configuration.days)
            let expected = trend.days.map { truth.secondsByDate[$0.date] ?? 0 }
            #expect(trend.days.map(\.activeSeconds) == expected, "\(user)")
            #expect(heatmap.days.map(\.activeSeconds) == expected, "\(user)")
            #expect(trend.totalActiveSeconds == truth.totalSeconds, "\(user)")

            let feedback = try reports.dislikeRate(DislikeGrouping(), user: user)
            #expect(Self.sum(feedback, "dislikes") == truth.disliked.count, "\(user)")
            #expect(Self.sum(feedback, "likes") == truth.liked.count, "\(user)")
            let exposures = try reports.exposures(by: .page, user: user)
            #expect(Self.sum(exposures, "exposures") == truth.exposures.count, "\(user)")
            #expect(Self.sum(exposures, "duplicateExposures") <= 0, "\(user)")
            let latency = try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "view_name", user: user)
            #expect(Self.sum(latency, "count") == truth.viewsLoaded, "\(user)")
            try Self.checkModels(truth, reports: reports)
        }
        try Self.checkRollout(truths, reports: reports)
    }

    /// The rows of `report` whose text column `key` is `value`.
    private static func rows(_ report: GroupedReport, _ key: String, _ value: String) -> GroupedReport {
        guard let column = report.columns.firstIndex(where: { $0.name == key }) else { return GroupedReport(columns: report.columns, rows: []) }
        return GroupedReport(columns: report.columns, rows: report.rows.filter { $0[column] == .text(value) })
    }

    /// Each model's exposures, likes and dislikes of one user, as `dislike-rate --by model` counts them.
    private static func checkModels(_ truth: GroundTruth, reports: SQLiteReports) throws {
        let byModel = try reports.dislikeRate(DislikeGrouping(byModel: true, byPosition: false), user: truth.userId)
        let rollout = configuration.rollout
        for model in [rollout.baseline, rollout.candidate] {
            let row = rows(byModel, "modelInfo", model)
            #expect(sum(row, "exposures") == truth.exposures(of: model), "\(truth.userId) \(model)")
            #expect(sum(row, "likes") == truth.likes(of: model), "\(truth.userId) \(model)")
            #expect(sum(row, "dislikes") == truth.dislikes(of: model), "\(truth.userId) \(model)")
        }
        #expect(byModel.rows.count <= 2, "no model but the baseline and the candidate: \(byModel.rows)")
        if truth.candidateFrom == nil {
            #expect(truth.exposures(of: rollout.candidate) == 0, "\(truth.userId) is outside the rollout")
        }
    }

    /// The rollout as the events show it: its share of the users see the candidate, only from its
    /// first day; users are on both platforms, as their events say.
    private static func checkRollout(_ truths: [GroundTruth], reports: SQLiteReports) throws {
        let rollout = configuration.rollout
        let rolledOut = truths.filter { $0.candidateFrom != nil }
        #expect(rolledOut.count == 2, "half of the 4 users")
        #expect(rolledOut.allSatisfy { $0.exposures(of: rollout.candidate) > 0 })
        #expect(Set(truths.map(\.platform)) == ["ios", "android"])
        let firstDates = try reports.adHoc(
            "SELECT user_id, min(local_date) AS first, platform FROM exposure_events WHERE model_info = :model GROUP BY user_id, platform ORDER BY 1",
            parameters: ["model": .text(rollout.candidate)], interrupter: nil)
        let expected = rolledOut.sorted { $0.userId < $1.userId }
        #expect(firstDates.rows.count == expected.count)
        for (row, truth) in zip(firstDates.rows, expected) {
            #expect(row[0] == .text(truth.userId))
            #expect(row[2] == .text(truth.platform))
            guard case .text(let first) = row[1], let from = truth.candidateFrom else {
                Issue.record("\(truth.userId): no first date in \(row)")
                continue
            }
            #expect(first >= from.description, "\(truth.userId) sees \(rollout.candidate) from \(from), not \(first)")
        }
        let total = { (count: (GroundTruth) -> Int) in truths.map(count).reduce(0, +) }
        let byModel = try reports.dislikeRate(DislikeGrouping(byModel: true, byPosition: false), user: nil)
        #expect(sum(rows(byModel, "modelInfo", rollout.candidate), "exposures") == total { $0.exposures(of: rollout.candidate) })
        #expect(sum(rows(byModel, "modelInfo", rollout.baseline), "dislikes") == total { $0.dislikes(of: rollout.baseline) })
    }

    @Test func theSameSeedWritesTheSameBytes() async throws {
        let directory = Self.scratch("seed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = SimulationConfiguration(users: 2, days: 6, seed: 11, endMs: Self.endMs)
        let first = directory.appendingPathComponent("a")
        let second = directory.appendingPathComponent("b")
        _ = try await Simulation(configuration: configuration).run(into: first)
        _ = try await Simulation(configuration: configuration).run(into: second)
        var bytes = 0
        for (a, b) in zip(Simulation.outputFiles(in: first), Simulation.outputFiles(in: second)) {
            let left = FileManager.default.contents(atPath: a.path)
            #expect(left == FileManager.default.contents(atPath: b.path), "\(a.lastPathComponent)")
            bytes += left?.count ?? 0
        }
        #expect(bytes > 0)
    }
}
