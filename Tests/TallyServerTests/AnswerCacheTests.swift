import NIOConcurrencyHelpers
import Testing
@testable import TallyServer

@Suite struct AnswerCacheTests {
    @Test func concurrentMissesShareOneComputationAndANewVersionRecomputes() async throws {
        let cache = AnswerCache()
        let runs = NIOLockedValueBox(0)
        let compute: @Sendable () async throws -> String = {
            runs.withLockedValue { $0 += 1 }
            try await Task.sleep(nanoseconds: 50_000_000)
            return "answer"
        }
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await cache.answer("k", version: "v1", compute: compute) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers == Array(repeating: "answer", count: 20))
        #expect(runs.withLockedValue { $0 } == 1)
        _ = try await cache.answer("k", version: "v1", compute: compute)
        #expect(runs.withLockedValue { $0 } == 1)
        _ = try await cache.answer("k", version: "v2", compute: compute)
        #expect(runs.withLockedValue { $0 } == 2)
    }
}
