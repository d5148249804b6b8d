import Foundation
import TallySupport
import Testing

struct GzipTests {
    @Test func gunzipReadsBackWhatWasCompressed() throws {
        let text = String(repeating: "{\"eventId\":\"e-1\",\"eventName\":\"view_loaded\"}\n", count: 200)
        let compressed = try Gzip.compress(Array(text.utf8))
        #expect(compressed.starts(with: [0x1F, 0x8B]))
        #expect(compressed.count < text.utf8.count / 4)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.gz")
        try Data(compressed).write(to: file)
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gunzip.arguments = ["-c", "gunzip -c \"$0\"", file.path]
        let pipe = Pipe()
        gunzip.standardOutput = pipe
        try gunzip.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        gunzip.waitUntilExit()
        #expect(String(decoding: output, as: UTF8.self) == text)
    }

    @Test func sameInputGivesSameBytes() throws {
        let body = Array("[{\"id\":\"f-1\"}]".utf8)
        #expect(try Gzip.compress(body) == Gzip.compress(body))
    }
}
