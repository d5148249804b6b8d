import NIOConcurrencyHelpers

/// Rendered answers of the current store version, by request: a dashboard polling the same
/// question, or many clients asking it, cost one query per store change. Concurrent requests
/// for an answer not yet kept share one computation, so that a change of the store (or of the
/// minute) does not start the same query once per waiting client.
final class AnswerCache: Sendable {
    private struct State {
        var version: String = ""
        var answers: [String: String] = [:]
        var computing: [String: Task<String, any Error>] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// Answers kept per version before the cache starts over.
    let capacity: Int

    /// A cache of at most `capacity` answers.
    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The answer to `key` at `version`: kept, being computed by another request, or computed
    /// now by `compute` and kept.
    func answer(_ key: String, version: String, compute: @escaping @Sendable () async throws -> String) async throws -> String {
        if let kept = state.withLockedValue({ $0.version == version ? $0.answers[key] : nil }) {
            return kept
        }
        let task: Task<String, any Error> = state.withLockedValue { state in
            if state.version != version {
                state.version = version
                state.answers.removeAll(keepingCapacity: true)
                state.computing.removeAll()
            }
            if let running = state.computing[key] {
                return running
            }
            let running = Task { try await compute() }
            state.computing[key] = running
            return running
        }
        let answer: String
        do {
            answer = try await task.value
        } catch {
            state.withLockedValue { state in
                if state.version == version { state.computing[key] = nil }
            }
            throw error
        }
        state.withLockedValue { state in
            guard state.version == version else { return }
            state.computing[key] = nil
            if state.answers.count >= capacity { state.answers.removeAll(keepingCapacity: true) }
            state.answers[key] = answer
        }
        return answer
    }
}
