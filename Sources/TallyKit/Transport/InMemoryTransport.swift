import TallySupport

/// A scripted destination for tests and simulations: it records every request and answers from
/// a script, then with 200 "all accepted" once the script is used up.
public final class InMemoryTransport: UploadTransport {
    /// One scripted answer.
    public enum Answer: Sendable {
        /// Answer with `response`.
        case respond(UploadResponse)
        /// Throw `error` (no answer: timeout, no network).
        case fail(TransportError)
    }

    private let state = Locked<(script: [Answer], requests: [UploadRequest])>(([], []))
    /// See ``UploadTransport/clientErrorsDropBatch``.
    public let clientErrorsDropBatch: Bool

    /// A destination answering `script` in order.
    public init(script: [Answer] = [], clientErrorsDropBatch: Bool = false) {
        self.clientErrorsDropBatch = clientErrorsDropBatch
        state.withLock { $0.script = script }
    }

    /// Adds answers to the end of the script.
    public func script(_ answers: Answer...) {
        state.withLock { $0.script += answers }
    }

    /// Every request received, in order.
    public var requests: [UploadRequest] {
        state.withLock { $0.requests }
    }

    /// Records `request` and gives the next scripted answer.
    public func send(_ request: UploadRequest) async throws -> UploadResponse {
        let answer = state.withLock { state -> Answer in
            state.requests.append(request)
            return state.script.isEmpty ? .respond(.accepted) : state.script.removeFirst()
        }
        switch answer {
        case .respond(let response): return response
        case .fail(let error): throw error
        }
    }
}
