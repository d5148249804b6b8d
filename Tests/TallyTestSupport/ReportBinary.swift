import Foundation

/// Runs the built `report` executable, as a user would.
public struct ReportBinary {
    /// How a run ended and what it printed.
    public struct Result {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String

        /// Standard output as a JSON object.
        public func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let dictionary = object as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
            return dictionary
        }
    }

    /// The folder holding the test bundle, where SwiftPM also puts `report`.
    public static var url: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("report")
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("report")
    }

    /// Runs `report arguments…`, feeding `stdin`, and waits for it; output goes through files so
    /// that neither stream can fill up and block the process.
    @discardableResult
    public static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out"), errURL = folder.appendingPathComponent("err")
        for url in [outURL, errURL] {
            try Data().write(to: url)
        }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = try start(arguments, environment: environment, stdout: out, stderr: err)
        let input = process.standardInput as! Pipe
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Starts `report arguments…` with a pipe for its input.
    public static func start(_ arguments: [String], environment: [String: String] = [:],
                      stdout: FileHandle = .nullDevice, stderr: FileHandle = .nullDevice) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TALLY_DB"] = nil
        env.merge(environment) { _, new in new }
        process.environment = env
        process.standardInput = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return process
    }
}
