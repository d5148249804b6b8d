import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallySupport

/// POSTs batches to an HTTP endpoint over `URLSession`, gzip-compressed
/// (`Content-Encoding: gzip`). A timeout or lost connection throws, so the batch is retried.
public struct HTTPTransport: UploadTransport {
    /// Where batches go.
    public var url: URL
    /// How the events are laid out in the body.
    public var shape: BatchBodyShape
    /// Extra headers (an `Authorization: Bearer …` for `report serve --token`, say).
    public var headers: [String: String]
    /// Seconds to wait for an answer.
    public var timeoutSeconds: Double
    /// See ``UploadTransport/clientErrorsDropBatch``.
    public var clientErrorsDropBatch: Bool
    private let session: URLSession

    /// A transport posting to `url` in `shape`.
    public init(url: URL, shape: BatchBodyShape, headers: [String: String] = [:], timeoutSeconds: Double = 30,
                clientErrorsDropBatch: Bool = false, session: URLSession = .shared) {
        self.url = url
        self.shape = shape
        self.headers = headers
        self.timeoutSeconds = timeoutSeconds
        self.clientErrorsDropBatch = clientErrorsDropBatch
        self.session = session
    }

    /// The transport of `api.md`'s write side for `family` on a server at `baseURL`
    /// (`report serve`): reading and feedback to their batch paths, the others to `/events`.
    public static func reportServer(baseURL: URL, family: EventFamilyRoute, token: String? = nil) -> HTTPTransport {
        let (path, shape): (String, BatchBodyShape) = switch family {
        case .reading: ("learning/reading-events/batch", .eventsObject)
        case .feedback: ("v1/feedback/batch", .array)
        case .events: ("events", .ndjson)
        }
        return HTTPTransport(url: baseURL.appendingPathComponent(path), shape: shape,
                             headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    /// Sends the batch; any answer is returned, no answer throws.
    public func send(_ request: UploadRequest) async throws -> UploadResponse {
        var http = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        http.httpMethod = "POST"
        http.httpBody = Data(try Gzip.compress(shape.body(fromNDJSON: request.ndjson)))
        http.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        http.setValue(shape == .ndjson ? "application/x-ndjson" : "application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { http.setValue(value, forHTTPHeaderField: name) }
        return try await Self.perform(http, session: session)
    }

    /// Performs `request`, turning transport failures into ``TransportError``.
    static func perform(_ request: URLRequest, session: URLSession) async throws -> UploadResponse {
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw TransportError("\(request.url?.absoluteString ?? "?"): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportError("\(request.url?.absoluteString ?? "?"): not an HTTP answer")
        }
        return UploadResponse(status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"),
                              body: Array(data))
    }
}
