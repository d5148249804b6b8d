import TallyQuery
import TallyRender
import XCTest

/// `ReportDefinition.arguments(_:)`: a report's parameters read from what flags or query-string
/// items hold, each checked as its kind says.
final class ReportDefinitionArgumentsTests: XCTestCase {
    /// The message `values` is refused with, naming `parameter`.
    private func refusal(_ definition: ReportDefinition, _ values: [String: String], names parameter: String,
                         file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try definition.arguments(values)
            XCTFail("\(values) was taken", file: file, line: line)
        } catch QueryError.invalidParameter(let name, let message) {
            XCTAssertEqual(name, parameter, file: file, line: line)
            return message
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func testAbsentValuesTakeTheirDefaultsAndGivenOnesAreRead() throws {
        for definition in ReportCatalog.all where !definition.parameters.contains(where: { if case .text(true, _) = $0.kind { true } else { false } }) {
            XCTAssertEqual(try definition.arguments([:]), definition.defaultArguments, definition.name)
        }
        let read = try ReportCatalog.dislikeRate.arguments(["by": "position", "positionBuckets": "0-4,5-", "topReasons": "3"])
        XCTAssertEqual(read[text: "by"], "position")
        XCTAssertEqual(read[text: "positionBuckets"], "0-4,5-")
        XCTAssertEqual(read[int: "topReasons"], 3)
        XCTAssertEqual(try ReportCatalog.trend.arguments(["days": "30"])[int: "days"], 30)
    }

    func testEmptyTextIsAbsentAndRequiredTextMustBeGiven() throws {
        let latency = try ReportCatalog.latency.arguments(["event": "view_loaded", "field": "load_duration_ms", "by": ""])
        XCTAssertEqual(latency[text: "by"], "appVersion")
        XCTAssertEqual(refusal(ReportCatalog.latency, ["field": "x"], names: "event"), "event is required")
        XCTAssertEqual(refusal(ReportCatalog.latency, ["event": "", "field": "x"], names: "event"), "event is required")
    }

    func testRangesAreCheckedWithTheMessagesTheServerAnswers() {
        XCTAssertEqual(refusal(ReportCatalog.trend, ["days": "0"], names: "days"), "days must be 1...3660, got 0")
        XCTAssertEqual(refusal(ReportCatalog.retention, ["days": "3661"], names: "days"), "days must be 1...3660, got 3661")
        XCTAssertEqual(refusal(ReportCatalog.heatmap, ["days": "seven"], names: "days"), #"days must be an integer from 1 to 3660, got "seven""#)
        XCTAssertEqual(refusal(ReportCatalog.dislikeRate, ["topReasons": "101"], names: "topReasons"),
                       #"topReasons must be an integer from 0 to 100, got "101""#)
        XCTAssertEqual(refusal(ReportCatalog.top, ["event": "x", "limit": "0"], names: "limit"), #"limit must be an integer of at least 1, got "0""#)
    }

    func testChoicesAndPatternsAreCheckedByTheReportsOwnParsers() throws {
        XCTAssertEqual(refusal(ReportCatalog.exposures, ["by": "colour"], names: "by"), #"by must be day, page, item, model or position, got "colour""#)
        XCTAssertEqual(refusal(ReportCatalog.dislikeRate, ["by": "model,colour"], names: "by"), #"by must be model, position or model,position, got "model,colour""#)
        XCTAssertEqual(refusal(ReportCatalog.dislikeRate, ["positionBuckets": "9-1"], names: "positionBuckets"),
                       #"position-buckets must be ascending and must not overlap, got "9-1""#)
        XCTAssertEqual(try ReportCatalog.dislikeRate.arguments(["by": "model, position"])[text: "by"], "model, position")
    }

    /// A value out of range set in code is refused too, when the report is computed.
    func testTypedArgumentsAreValidatedLikeRawOnes() {
        var arguments = ReportCatalog.retention.defaultArguments
        XCTAssertNoThrow(try ReportCatalog.retention.validate(arguments))
        arguments[int: "days"] = 0
        XCTAssertThrowsError(try ReportCatalog.retention.validate(arguments))
    }
}
