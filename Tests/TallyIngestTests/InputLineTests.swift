import TallyIngest
import XCTest

/// NDJSON: line splitting, BOM, CRLF, blank lines, line numbers, format choice.
final class InputLineTests: XCTestCase {
    typealias Cut = InputFixtures.Cut

    func testBOMCRLFAndBlankLinesKeepLineNumbers() throws {
        let text = "\u{FEFF}{\"a\":1}\r\n\r\n   \t\r\n{\"b\":2}\n\n{\"c\":3}"
        let cuts = try InputFixtures.assertChunkingInvariant(Array(text.utf8), name: "x.ndjson")
        XCTAssertEqual(cuts, [Cut("{\"a\":1}", line: 1), Cut("{\"b\":2}", line: 4), Cut("{\"c\":3}", line: 6)])
    }

    func testLeadingBlankLinesAndBadLinesAreRecords() throws {
        let text = "\n\n  {\"a\":1}\n garbage\n{\"b\":\n\u{0}\u{1}bin\n[1,2]\n"
        let (format, cuts) = try InputFixtures.read(text, name: "x.json")
        XCTAssertEqual(format, .ndjson)
        XCTAssertEqual(cuts, [Cut("  {\"a\":1}", line: 3), Cut(" garbage", line: 4), Cut("{\"b\":", line: 5),
                              Cut("\u{0}\u{1}bin", line: 6), Cut("[1,2]", line: 7)])
    }

    func testJSONFileWhoseFirstObjectHasNoEventsKeyIsNDJSON() throws {
        let text = "{\"eventId\":\"e1\",\"nested\":{\"events\":[1]},\"list\":[\"events\"]}\n{\"events\":[{\"x\":1}]}\n"
        let cuts = try InputFixtures.assertChunkingInvariant(Array(text.utf8), name: "x.json")
        XCTAssertEqual(try InputFixtures.read(text).0, .ndjson)
        XCTAssertEqual(cuts.map(\.line), [1, 2])
        XCTAssertEqual(cuts[0].text, "{\"eventId\":\"e1\",\"nested\":{\"events\":[1]},\"list\":[\"events\"]}")
    }

    func testEventsKeyWithoutArrayIsNDJSON() throws {
        let (format, cuts) = try InputFixtures.read("{\"events\":null,\"a\":1}\n{\"b\":2}")
        XCTAssertEqual(format, .ndjson)
        XCTAssertEqual(cuts, [Cut("{\"events\":null,\"a\":1}", line: 1), Cut("{\"b\":2}", line: 2)])
    }

    func testNDJSONNamesAreAlwaysReadLineByLine() throws {
        for name in ["x.ndjson", "X.JSONL", "x.ndjson.gz"] {
            let (format, cuts) = try InputFixtures.read(InputFixtures.gzipIf(name.hasSuffix(".gz"), "[1,\n2]\n{\"events\":[]}"),
                                                        name: name)
            XCTAssertEqual(format, .ndjson, name)
            XCTAssertEqual(cuts, [Cut("[1,", line: 1), Cut("2]", line: 2), Cut("{\"events\":[]}", line: 3)], name)
        }
    }

    func testEmptyAndBlankInputsHaveNoRecords() throws {
        for text in ["", "\u{FEFF}", "\n\r\n  \n", "  "] {
            let (format, cuts) = try InputFixtures.read(text)
            XCTAssertEqual(format, .ndjson)
            XCTAssertEqual(cuts, [])
        }
    }

    func testTooLongLineIsReportedAndSkipped() throws {
        let long = "{\"a\":\"" + String(repeating: "x", count: 100) + "\"}"
        let text = "{\"a\":1}\n\(long)\n{\"b\":2}\n"
        for size in [4, 16, 1024] {
            let (_, cuts) = try InputFixtures.read(text, name: "x.ndjson", chunkSize: size, maxRecordBytes: 50)
            XCTAssertEqual(cuts.map(\.line), [1, 2, 3])
            XCTAssertEqual(cuts.map(\.malformed), [false, true, false])
            XCTAssertTrue(long.hasPrefix(cuts[1].text) && !cuts[1].text.isEmpty)
        }
    }

    func testReadsOncePerReader() throws {
        let reader = try EventFileReader(bytes: Array("{}\n{}\n".utf8), name: "x.ndjson")
        XCTAssertEqual(try InputFixtures.cuts(of: reader).count, 2)
        XCTAssertEqual(try InputFixtures.cuts(of: reader).count, 0)
    }
}
