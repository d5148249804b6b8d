import Testing
import TallyEvents

@Suite("JSONScanner accessors")
struct JSONScannerAccessorTests {
    @Test("lists every member once, a repeated key with its last value, in small and large objects", arguments: [3, 16, 17, 40])
    func membersOnce(_ size: Int) {
        let members = (0..<size).map { #""k\#($0 % (size / 2 + 1))":\#($0)"# } + [#""\u006b0":"last""#]
        let listed = ScannedJSON.withObject("{" + members.joined(separator: ",") + "}") { object in
            var found: [String] = []
            object.forEachMember { key, value in found.append(key + "=" + value.rawText) }
            return found
        }
        let kept = (0..<size).filter { $0 + size / 2 + 1 >= size && $0 % (size / 2 + 1) != 0 }.map { "k\($0 % (size / 2 + 1))=\($0)" }
        #expect(listed == kept + [#"k0="last""#])
    }

    @Test("decodes strings with and without escapes")
    func strings() {
        #expect(ScannedJSON.withValue("\"plain\"") { $0.string } == "plain")
        #expect(ScannedJSON.withValue("\"\"") { $0.string } == "")
        #expect(ScannedJSON.withValue(#""a\"b\\c\/d\be\ff\ng\rh\ti""#) { $0.string } == "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti")
        #expect(ScannedJSON.withValue(#""\u0041\u00e9\u4E2D\ud83d\ude00\u0000""#) { $0.string } == "Aé中😀\u{0}")
        #expect(ScannedJSON.withValue(#""线性代数 \u7ebf""#) { $0.string } == "线性代数 线")
        #expect(ScannedJSON.withValue(#""\uDBFF\uDFFF""#) { $0.string } == "\u{10FFFF}")
        #expect(ScannedJSON.withValue("1") { $0.string } == .some(nil))
    }

    @Test("reads integers that are exactly integral and in range", arguments: [
        ("15", Int64(15)), ("15.0", 15), ("1.5e1", 15), ("1500e-2", 15), ("150E-1", 15), ("-0", 0), ("0.0", 0),
        ("0e5", 0), ("-15.000", -15), ("1795100000000", 1_795_100_000_000), ("1.7951e12", 1_795_100_000_000),
        ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
        ("9223372036854775807.000", Int64.max), ("922337203685477580.7e1", Int64.max),
        ("12345678901234567890e-1", 1_234_567_890_123_456_789), ("100000000000000000000e-2", 1_000_000_000_000_000_000),
        ("0.00000000000000000000000001e26", 1),
    ])
    func integers(_ text: String, _ expected: Int64) {
        #expect(ScannedJSON.withValue(text) { $0.int64 } == .some(expected))
    }

    @Test("refuses numbers that are not integral or out of range", arguments: [
        "15.5", "1e-400", "0.1", "9223372036854775808", "-9223372036854775809", "1e19", "1e999999999999",
        "99999999999999999999", "1.00000000000000000001", "\"15\"", "true", "null", "[15]",
    ])
    func notIntegers(_ text: String) {
        #expect(ScannedJSON.withValue(text) { $0.int64 } == .some(nil))
    }

    @Test("reads doubles exactly as the standard library parses them")
    func doubles() {
        let texts = ["0.809", "0.3", "1", "-2.5", "1e22", "1e23", "123456789012345678", "0.1e-5", "5e-324",
                     "1.7976931348623157e308", "2.2250738585072014e-308", "9007199254740993", "0.30000000000000004",
                     "1e400", "-1e400", "-0.0", "1E+2", "4.35"]
        for text in texts {
            let value = ScannedJSON.withValue(text) { $0.double } ?? nil
            #expect(value.map { $0.bitPattern } == Double(text)?.bitPattern, "\(text)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            #expect(ScannedJSON.withValue("\(value)") { $0.double } == .some(value))
            let short = Double(Int64.random(in: -999_999...999_999)) / 1000
            #expect(ScannedJSON.withValue("\(short)") { $0.double } == .some(short))
        }
        #expect(ScannedJSON.withValue("\"1\"") { $0.double } == .some(nil))
    }

    @Test("reads booleans, nulls and kinds")
    func scalars() {
        #expect(ScannedJSON.withValue("true") { $0.bool } == true)
        #expect(ScannedJSON.withValue("false") { $0.bool } == false)
        #expect(ScannedJSON.withValue("null") { $0.bool } == .some(nil))
        #expect(ScannedJSON.withValue("null") { $0.isNull } == true)
        #expect(ScannedJSON.withValue("0") { $0.isNull } == false)
        #expect(ScannedJSON.withValue("[1]") { $0.kind } == .array)
        #expect(ScannedJSON.withValue("{}") { $0.kind } == .object)
    }

    @Test("gives raw text verbatim")
    func rawText() {
        let position = #"{"page": 3 , "pageCount":10, "extra":["é", {"x":null}]}"#
        #expect(ScannedJSON.withValue(position) { $0.rawText } == position)
        #expect(ScannedJSON.withValue(" \"a\\nb\" ") { $0.rawText } == "\"a\\nb\"")
        #expect(ScannedJSON.withValue("-1.5e3") { $0.rawText } == "-1.5e3")
        #expect(ScannedJSON.withObject(" {\"a\" : 1} ") { $0.rawText } == "{\"a\" : 1}")
    }

    @Test("scans nested objects the same way")
    func nested() {
        let text = #"{"context":{"impressionId":"i","businessPayload":{"itemId":"item-7","n":[1,{"itemId":"no"}]}}}"#
        let itemId = ScannedJSON.withObject(text) { object in
            object["context"]?.object?["businessPayload"]?.object?["itemId"]?.string
        }
        #expect(itemId == "item-7")
        #expect(ScannedJSON.withObject(text) { $0["context"]?.object?.count } == 2)
        #expect(ScannedJSON.withObject(text) { $0["context"]?.string } == .some(nil))
        #expect(ScannedJSON.withObject("{\"a\":[1]}") { $0["a"]?.object == nil } == true)
    }

    @Test("lets the last of repeated keys win")
    func duplicateKeys() {
        #expect(ScannedJSON.withObject(#"{"a":1,"b":2,"a":3}"#) { $0["a"]?.int64 } == 3)
        #expect(ScannedJSON.withObject(#"{"a":1,"b":2,"a":3}"#) { $0.count } == 3)
        #expect(ScannedJSON.withObject(#"{"a":null,"a":"x"}"#) { $0["a"]?.string } == "x")
        #expect(ScannedJSON.withObject(#"{"a":"x","a":null}"#) { $0["a"]?.isNull } == true)
        // Escaped spellings of the same key are the same key.
        #expect(ScannedJSON.withObject(#"{"ab":1,"a\u0062":2}"#) { $0["ab"]?.int64 } == 2)
        #expect(ScannedJSON.withObject(#"{"a\u0062":1,"ab":2}"#) { $0["ab"]?.int64 } == 2)
        #expect(ScannedJSON.withObject(#"{"event\u0049d":"e-1"}"#) { $0["eventId"]?.string } == "e-1")
        // Many members: past the hash index, and past the first storage growth.
        let many = "{" + (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":-7}"
        let manyValues: [Int64?]? = ScannedJSON.withObject(many) { object in [object["k7"]?.int64, object["k99"]?.int64] }
        #expect(manyValues == [-7, 99])
        #expect(ScannedJSON.withObject(many) { $0["k100"] == nil } == true)
        let some = "{" + (0..<30).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":-7}"
        let someValues: [Int64?]? = ScannedJSON.withObject(some) { object in [object["k7"]?.int64, object["k29"]?.int64] }
        #expect(someValues == [-7, 29])
    }

    @Test("tells keys apart by every byte")
    func keyComparison() {
        let text = #"{"clientTimestampMs":1,"clientTimestampMx":2,"clientTimezoneOffsetMinutes":3,"":4,"a":5,"abcdefgh":6,"abcdefghi":7}"#
        let values = ScannedJSON.withObject(text) { object in
            [object["clientTimestampMs"], object["clientTimestampMx"], object["clientTimezoneOffsetMinutes"],
             object[""], object["a"], object["abcdefgh"], object["abcdefghi"]].map { $0?.int64 }
        }
        #expect(values == [1, 2, 3, 4, 5, 6, 7])
        #expect(ScannedJSON.withObject(text) { $0.contains("clientTimestamp") || $0.contains("b") || $0.contains("abcdefg") } == false)
    }
}
