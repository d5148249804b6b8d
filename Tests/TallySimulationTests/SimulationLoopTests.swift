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
        }
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
