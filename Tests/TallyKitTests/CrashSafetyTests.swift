import Foundation
import Testing
import TallyTestSupport
@testable import TallyKit

@Suite("Crash safety")
struct CrashSafetyTests {
    /// Where the test's executables are built.
    static var productsDirectory: URL {
        #if os(macOS)
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// What a killed child reported before it died.
    struct Report {
        var enqueued: Set<String> = []
        var sending: [String: [String]] = [:]
        var acknowledged: Set<String> = []

        mutating func read(_ text: String) {
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                switch words.first {
                case "E": enqueued.insert(words[1])
                case "S": sending[words[1], default: []] += words.dropFirst(2)
                case "A": acknowledged.insert(words[1])
                default: break
                }
            }
        }
    }

    @Test("kill -9 at random points loses nothing enqueue returned for and never resends an acknowledged event")
    func killNine() throws {
        let child = Self.productsDirectory.appendingPathComponent("QueueCrashChild")
        try #require(FileManager.default.isExecutableFile(atPath: child.path), "QueueCrashChild is built with the tests")
        let directory = QueueFixtures.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = SplitMix64(seed: 2026)
        var report = Report()
        for round in 0..<8 {
            let process = Process()
            process.executableURL = child
            process.arguments = [directory, "round\(round)", "2000"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            // Kill after a random number of reported steps, read from the child's own output.
            let killAfter = Int.random(in: 20...2500, using: &random)
            var received = Data()
            var lines = 0
            while lines < killAfter {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received.append(chunk)
                lines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
            kill(process.processIdentifier, SIGKILL)
            received.append(pipe.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            var text = String(decoding: received, as: UTF8.self)
            if let cut = text.lastIndex(of: "\n") { text = String(text[...cut]) } else { text = "" }
            report.read(text)
        }

        let queue = try DurableQueue.open(directory: directory)
        defer { queue.close() }
        let left = try QueueFixtures.drainIds(queue)
        let acknowledged = Set(report.acknowledged.flatMap { report.sending[$0] ?? [] })
        let unanswered = Set(report.sending.filter { !report.acknowledged.contains($0.key) }.values.joined())
        #expect(Set(left).count == left.count, "no event is queued twice")
        #expect(Set(left).isDisjoint(with: acknowledged), "an acknowledged event is never sent again")
        let lost = report.enqueued.subtracting(left).subtracting(acknowledged).subtracting(unanswered)
        #expect(lost.isEmpty, "lost \(lost.count) events, e.g. \(lost.sorted().prefix(5))")
        #expect(report.enqueued.count > 100)
        #expect(queue.stats.counters.quarantined <= 8, "at most one torn record per kill")
    }
}
