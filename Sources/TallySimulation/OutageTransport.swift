import TallyKit
import TallySupport

/// A transport that fails like a dead network while an outage is on and otherwise hands the
/// batch to the transport it wraps.
struct OutageTransport: UploadTransport {
    /// Where batches go when the network works.
    let wrapped: any UploadTransport
    /// Whether the network is down now.
    let offline: Locked<Bool>

    func send(_ request: UploadRequest) async throws -> UploadResponse {
        if offline.withLock({ $0 }) {
            throw TransportError("the network connection was lost")
        }
        return try await wrapped.send(request)
    }
}
