import Foundation
import Testing

/// Golden files: the expected output of each render, under `Golden/`, read from the test bundle.
///
/// To write them again from the current output (then read the diff before committing):
///
///     TALLY_UPDATE_GOLDEN=1 swift test --filter TallyRenderTests
///
/// The files are written into the source tree (beside this file), not into the bundle.
enum Golden {
    /// Whether this run rewrites the golden files instead of comparing with them.
    static let updating = ProcessInfo.processInfo.environment["TALLY_UPDATE_GOLDEN"] == "1"

    /// The source directory of the golden files.
    static let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Compares `actual` with golden file `name`, byte for byte, and reports the first line
    /// that differs; with `TALLY_UPDATE_GOLDEN=1`, writes `actual` to the file instead.
    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if updating {
            try actual.write(to: sourceDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            return
        }
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden") else {
            Issue.record("No golden file \(name); create it with TALLY_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        guard actual != expected else { return }
        let lines = { (text: String) in text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" } }
        let expectedLines = lines(expected)
        let actualLines = lines(actual)
        let index = zip(expectedLines, actualLines).enumerated().first { $1.0 != $1.1 }?.offset ?? min(expectedLines.count, actualLines.count)
        let line = { (lines: [Substring]) in index < lines.count ? String(reflecting: String(lines[index])) : "(end of text)" }
        Issue.record("""
            \(name) differs at line \(index + 1):
              expected \(line(expectedLines))
              actual   \(line(actualLines))
            """, sourceLocation: sourceLocation)
    }
}
