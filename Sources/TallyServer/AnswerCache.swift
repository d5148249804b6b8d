import NIOConcurrencyHelpers

/// Rendered answers of the current store version, by request: a dashboard polling the same
/// question, or many clients asking it, cost one query per store change.
final class AnswerCache: Sendable {
    private struct State {
        var version: String = ""
        var answers: [String: String] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// Answers kept per version before the cache starts over.
    let capacity: Int

    /// A cache of at most `capacity` answers.
    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The answer to `key` computed at `version`, if kept.
    func answer(_ key: String, version: String) -> String? {
        state.withLockedValue { $0.version == version ? $0.answers[key] : nil }
    }

    /// Keeps `answer`; a new version drops every older answer.
    func keep(_ answer: String, for key: String, version: String) {
        state.withLockedValue { state in
            if state.version != version || state.answers.count >= capacity {
                state.version = version
                state.answers.removeAll(keepingCapacity: true)
            }
            state.answers[key] = answer
        }
    }
}
