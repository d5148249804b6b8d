import Foundation
import TallyTestSupport
import XCTest

/// A short `scripts/chaos.py`: simulated uploads through a proxy that drops connections
/// mid-body and answers 503, to a server killed (-9) and restarted, end with every report equal
/// to a clean ingest of the same events.
final class ChaosRunTests: XCTestCase {
    func testAShortChaosRunEndsWithEveryReportEqualToTheGroundTruth() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let (status, text) = try Python.run(root.appendingPathComponent("scripts/chaos.py").path, [
            "--bin", ReportBinary.url.path, "--seed", "3", "--duration", "5", "--users", "1", "--days", "14", "--batch", "10",
        ])
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(text.contains("every report equals the ground truth"), text)
        XCTAssertTrue(text.contains("kill -9s") && !text.contains(" 0 kill -9s"), "the server was killed at least once: \(text)")
    }
}
