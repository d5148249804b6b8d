import TallyIngest
import XCTest

/// Batch files: arrays and `{"events": [...]}` streamed element by element.
final class InputBatchTests: XCTestCase {
    typealias Cut = InputFixtures.Cut

    func testArrayElementsWithTrickyStringsSpanChunks() throws {
        let text = """
            \u{FEFF}
              [ {"a":"]}","b":[1,[2,{"c":"\\"]"}]]} ,
            {"s":"back\\\\","t":"x\\\\\\"y}"},"plain string ]",
             -12.5e3 , true,null,{"u":"\\u005d"},
            [] ]
            """
        let cuts = try InputFixtures.assertChunkingInvariant(Array(text.utf8))
        XCTAssertEqual(try InputFixtures.read(text).0, .batchArray)
        XCTAssertEqual(cuts, [
            Cut(#"{"a":"]}","b":[1,[2,{"c":"\"]"}]]}"#, line: 2, index: 0),
            Cut(#"{"s":"back\\","t":"x\\\"y}"}"#, line: 3, index: 1),
            Cut(#""plain string ]""#, line: 3, index: 2),
            Cut("-12.5e3", line: 4, index: 3),
            Cut("true", line: 4, index: 4),
            Cut("null", line: 4, index: 5),
            Cut(#"{"u":"\u005d"}"#, line: 4, index: 6),
            Cut("[]", line: 5, index: 7),
        ])
    }

    func testMultiLineElementsStartOnTheirFirstLine() throws {
        let text = "[\n  {\n    \"a\": 1,\n    \"s\": \"x\"\n  },\n  {\n    \"b\": [\n 2\n ]\n  }\n]\n"
        let cuts = try InputFixtures.assertChunkingInvariant(Array(text.utf8))
        XCTAssertEqual(cuts.map(\.line), [2, 6])
        XCTAssertEqual(cuts.map(\.index), [0, 1])
        XCTAssertEqual(cuts[1].text, "{\n    \"b\": [\n 2\n ]\n  }")
    }

    func testLineFeedsInsideStringsStillCountAsLines() throws {
        let cuts = try InputFixtures.assertChunkingInvariant(Array("[\"a\nb\", \"c\\\nd\",\n{\"e\":1}]".utf8))
        XCTAssertEqual(cuts.map(\.line), [1, 2, 4])
        XCTAssertEqual(cuts.map(\.malformed), [false, false, false])
    }

    func testEventsObjectIgnoresOtherKeys() throws {
        let text = """
            {"meta": {"events": [9], "s": "\\"events\\": ["}, "count": 2,
             "events" : [{"id":1},
              {"id":"]"}], "after": {"x": "}"}, "more": [1,2]}

            """
        let cuts = try InputFixtures.assertChunkingInvariant(Array(text.utf8))
        XCTAssertEqual(try InputFixtures.read(text).0, .batchObject)
        XCTAssertEqual(cuts, [Cut(#"{"id":1}"#, line: 2, index: 0), Cut(#"{"id":"]"}"#, line: 3, index: 1)])
    }

    func testEmptyBatches() throws {
        for text in ["[]", " [ \n ] \n", #"{"events": []}"#] {
            let (_, cuts) = try InputFixtures.read(text)
            XCTAssertEqual(cuts, [], text)
        }
    }

    func testStructuralDamageIsReportedPerElement() throws {
        let text = #"[{"a":1} {"b":2},,{"c":3}, x y ,}, {"d":4},]"#
        let cuts = try InputFixtures.assertChunkingInvariant(Array(text.utf8))
        XCTAssertEqual(cuts, [
            Cut(#"{"a":1} {"b":2}"#, line: 1, index: 0, malformed: true),
            Cut("", line: 1, index: 1, malformed: true),
            Cut(#"{"c":3}"#, line: 1, index: 2),
            Cut("x y", line: 1, index: 3, malformed: true),
            Cut("}", line: 1, index: 4, malformed: true),
            Cut(#"{"d":4}"#, line: 1, index: 5),
            Cut("", line: 1, index: 6, malformed: true),
        ])
    }

    func testUnclosedArrayAfterCompleteElements() throws {
        let cuts = try InputFixtures.assertChunkingInvariant(Array("[{\"a\":1},\n{\"b\":2}\n".utf8))
        XCTAssertEqual(cuts, [Cut(#"{"a":1}"#, line: 1, index: 0), Cut(#"{"b":2}"#, line: 2, index: 1),
                              Cut("", line: 3, index: nil, malformed: true)])
    }

    func testInputEndingInsideAnElement() throws {
        let cuts = try InputFixtures.assertChunkingInvariant(Array(#"[{"a":1}, {"b":"]}"#.utf8))
        XCTAssertEqual(cuts, [Cut(#"{"a":1}"#, line: 1, index: 0), Cut(#"{"b":"]}"#, line: 1, index: 1, malformed: true)])
    }

    func testDataAfterTheBatchIsReportedAndReadAsMoreElements() throws {
        let text = "[{\"a\":1}]\n\n[{\"b\":2}]\n{\"c\":3}\n"
        let cuts = try InputFixtures.assertChunkingInvariant(Array(text.utf8))
        XCTAssertEqual(cuts, [Cut(#"{"a":1}"#, line: 1, index: 0), Cut("", line: 3, index: nil, malformed: true),
                              Cut(#"{"b":2}"#, line: 3, index: 1), Cut("", line: 4, index: nil, malformed: true),
                              Cut(#"{"c":3}"#, line: 4, index: 2)])
    }

    func testAStrayClosingBracketDoesNotEndTheInput() throws {
        let cuts = try InputFixtures.assertChunkingInvariant(Array(#"[{"a":1}], {"b":2}, {"c":3}]"#.utf8))
        XCTAssertEqual(cuts, [Cut(#"{"a":1}"#, line: 1, index: 0), Cut("", line: 1, index: nil, malformed: true),
                              Cut(#"{"b":2}"#, line: 1, index: 1), Cut(#"{"c":3}"#, line: 1, index: 2)])
    }

    func testUnclosedBatchObject() throws {
        let cuts = try InputFixtures.assertChunkingInvariant(Array(#"{"events":[{"a":1}], "x": {"#.utf8))
        XCTAssertEqual(cuts, [Cut(#"{"a":1}"#, line: 1, index: 0), Cut("", line: 1, index: nil, malformed: true)])
    }

    func testTooLongElementIsReportedAndSkipped() throws {
        let long = #"{"s":"\#(String(repeating: "]", count: 200))","n":[[[]]]}"#
        let text = #"[{"a":1},\#(long),{"b":2}]"#
        for size in [3, 64, 4096] {
            let (_, cuts) = try InputFixtures.read(text, chunkSize: size, maxRecordBytes: 100)
            XCTAssertEqual(cuts.map(\.index), [0, 1, 2])
            XCTAssertEqual(cuts.map(\.malformed), [false, true, false])
            XCTAssertEqual(cuts[2].text, #"{"b":2}"#)
        }
    }

    func testOneLineBatchOfHundredThousandElements() throws {
        var text = "{\"events\":["
        for i in 0..<100_000 {
            if i > 0 { text += "," }
            text += #"{"eventId":"e-\#(i)","s":"a]}\"b","p":{"q":[\#(i)]}}"#
        }
        text += "]}"
        let path = try InputFixtures.file("batch.json", Array(text.utf8))
        let reader = try EventFileReader(path: path, chunkSize: 4096)
        XCTAssertEqual(reader.format, .batchObject)
        var count = 0
        try reader.forEachRecord { record in
            XCTAssertEqual(record.index, count)
            XCTAssertEqual(record.line, 1)
            XCTAssertNil(record.malformed)
            if count == 99_999 {
                XCTAssertEqual(String(decoding: record.bytes, as: UTF8.self),
                               #"{"eventId":"e-99999","s":"a]}\"b","p":{"q":[99999]}}"#)
            }
            count += 1
        }
        XCTAssertEqual(count, 100_000)
        XCTAssertEqual(reader.bytesRead, text.utf8.count)
        XCTAssertEqual(reader.totalBytes, text.utf8.count)
    }
}
