import Foundation
import TallyTestSupport
import XCTest

/// The published acceptance suites (`../shared/acceptance`, and `../shared/acceptance-feed` with
/// the feed cohort: filters and model comparison), run against the built binary.
final class AcceptanceSuiteTests: XCTestCase {
    func testTheAcceptanceSuitePasses() throws {
        try runSuite("acceptance")
    }

    func testTheFeedAcceptanceSuitePasses() throws {
        try runSuite("acceptance-feed")
    }

    private func runSuite(_ name: String) throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let suite = package.deletingLastPathComponent().appendingPathComponent("shared/" + name)
        guard FileManager.default.fileExists(atPath: suite.appendingPathComponent("check.py").path) else {
            throw XCTSkip("no acceptance suite beside the package at \(suite.path)")
        }
        let (status, text) = try Python.run(suite.appendingPathComponent("check.py").path, [ReportBinary.url.path, "--suite", suite.path])
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains(" passed, 0 failed"), text)
    }
}
