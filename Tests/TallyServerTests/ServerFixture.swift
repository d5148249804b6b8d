import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import TallyServer
import TallySupport

/// A server over a new store in a temporary folder, with a clock the test sets.
final class ServerFixture: Sendable {
    let directory: URL
    let storePath: String
    let clock = NIOLockedValueBox<Int64>(ServerFixture.ms())
    let configuration: ServerConfiguration

    init(token: String? = nil, tokens: [AccessToken] = [], corsOrigins: [String] = [], maxBodyBytes: Int = 1 << 20, allowSQL: Bool = false,
         sqlTimeout: Duration = .seconds(5), sqlLimits: AdHocLimits = AdHocLimits(), sqlThreads: Int = 2) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        storePath = directory.appendingPathComponent("s.sqlite").path
        let clock = self.clock
        configuration = ServerConfiguration(storePath: storePath, token: token, tokens: tokens, corsOrigins: corsOrigins, maxBodyBytes: maxBodyBytes,
                                            allowSQL: allowSQL, sqlTimeout: sqlTimeout, sqlLimits: sqlLimits, sqlThreads: sqlThreads,
                                            workerThreads: 2,
                                            nowMs: { clock.withLockedValue { $0 } })
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` against the router in process, then closes the server.
    func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let server = try TallyServer(configuration: configuration)
        do {
            try await Application(router: server.router()).test(.router, body)
        } catch {
            try await server.close()
            throw error
        }
        try await server.close()
    }

    /// Runs `body` against the server listening on a free local port (its connection handlers
    /// included), then closes the server.
    func testLive(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let server = try TallyServer(configuration: configuration)
        do {
            try await server.application().test(.live, body)
        } catch {
            try await server.close()
            throw error
        }
        try await server.close()
    }

    /// Milliseconds of `2026-11-20T12:00:00Z` plus `days` and `hours`.
    static func ms(days: Int = 0, hours: Int = 0) -> Int64 {
        1_795_176_000_000 + Int64(days) * 86_400_000 + Int64(hours) * 3_600_000
    }

    static func reading(_ id: String, user: String = "u", material: String = "m", type: String = "heartbeat",
                        ts: Int64, delta: Int = 0) -> String {
        #"{"eventId":"\#(id)","userId":"\#(user)","materialId":"\#(material)","eventType":"\#(type)","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(delta)}"#
    }

    static func feedback(_ id: String, impression: String, type: String) -> String {
        #"{"id":"\#(id)","userId":"u","timestamp":\#(ms()),"feedbackType":"\#(type)","context":{"impressionId":"\#(impression)","modelInfo":"v1","feedPosition":2}}"#
    }
}

extension TestClientProtocol {
    /// A GET; `headers` added.
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// A POST of `body`.
    func post(_ uri: String, _ body: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await post(uri, Array(body.utf8), headers: headers)
    }

    /// A POST of raw bytes.
    func post(_ uri: String, _ body: [UInt8], headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    /// The error code of a JSON error answer.
    func errorCode() throws -> String? {
        (try json()["error"] as? [String: Any])?["code"] as? String
    }
}
