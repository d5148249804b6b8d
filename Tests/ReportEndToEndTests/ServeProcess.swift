import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `report serve` running as its own process on a free loopback port.
final class ServeProcess: @unchecked Sendable {
    let process: Process
    let base: String
    private let output: Pipe

    /// Starts `report serve --port PORT arguments…` (0: a free port) and waits for its
    /// "listening on" line.
    init(_ arguments: [String], port: Int = 0, environment: [String: String] = [:]) throws {
        output = Pipe()
        process = try ReportBinary.start(["serve", "--port", String(port)] + arguments, environment: environment,
                                         stdout: output.fileHandleForWriting)
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
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The status and body of a request.
    func request(_ path: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}
