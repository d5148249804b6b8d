import Foundation
import TallyTestSupport
import XCTest

/// The published acceptance suite (`../shared/acceptance`), run against the built binary.
final class AcceptanceSuiteTests: XCTestCase {
    func testTheAcceptanceSuitePasses() throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let suite = package.deletingLastPathComponent().appendingPathComponent("shared/acceptance")
        guard FileManager.default.fileExists(atPath: suite.appendingPathComponent("check.py").path) else {
            throw XCTSkip("no acceptance suite beside the package at \(suite.path)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", suite.appendingPathComponent("check.py").path, ReportBinary.url.path, "--suite", suite.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains(" passed, 0 failed"), text)
    }
}
