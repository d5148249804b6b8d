import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `report serve` running as its own process on a free loopback port.
public final class ServeProcess: @unchecked Sendable {
    /// The server's process.
    public let process: Process
    /// The URL it listens on, such as `http://127.0.0.1:40123`.
    public let base: String
    private let output: Pipe

    /// Starts `report serve --port PORT arguments…` (0: a free port) and waits for its
    /// "listening on" line; its log goes to `stderr`.
    public init(_ arguments: [String], port: Int = 0, environment: [String: String] = [:], stderr: FileHandle = .nullDevice) throws {
        output = Pipe()
        process = try ReportBinary.start(["serve", "--port", String(port)] + arguments, environment: environment,
                                         stdout: output.fileHandleForWriting, stderr: stderr)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else { throw CocoaError(.fileReadCorruptFile) }
        base = String(text.dropFirst("listening on ".count))
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Sends SIGTERM and waits for the exit status.
    public func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The status and body of a request.
    public func request(_ path: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]) async throws -> (Int, Data) {
        let (response, data) = try await exchange(path, method: method, body: body, headers: headers)
        return (response.statusCode, data)
    }

    /// The answer (status and headers) and body of a request, sent without any client cache.
    public func exchange(_ path: String, method: String = "GET", body: Data? = nil,
                         headers: [String: String] = [:]) async throws -> (HTTPURLResponse, Data) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await Self.session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (http, data)
    }

    /// A session that keeps no cache, so a 304 reaches the test as it was sent.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()
}
