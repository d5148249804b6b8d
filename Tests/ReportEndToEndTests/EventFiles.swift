import Foundation

/// Event files written for one test in a temporary folder.
final class EventFiles {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        return path(name)
    }

    /// Writes `name`, then gzips it with the system's gzip into `name.gz`.
    func writeGzip(_ name: String, _ text: String) throws -> String {
        try write(name, text)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = ["-c", "gzip -f '\(path(name))'"]
        try gzip.run()
        gzip.waitUntilExit()
        return path(name + ".gz")
    }

    static func reading(_ i: Int, user: String = "u-1", day: Int = 0, delta: Int = 15) -> String {
        let ts = 1_795_176_000_000 - Int64(day) * 86_400_000 - Int64(i % 1000) * 1000
        return #"{"eventId":"r-\#(i)","userId":"\#(user)","materialId":"m-\#(i % 5)","eventType":"heartbeat","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(delta),"clientTimezoneOffsetMinutes":480,"title":"线性代数","debugTag":"canary-\#(i)"}"#
    }
}
