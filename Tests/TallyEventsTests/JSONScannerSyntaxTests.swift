import Testing
import TallyEvents

@Suite("JSONScanner syntax")
struct JSONScannerSyntaxTests {
    @Test("accepts well-formed values", arguments: [
        "{}", "[]", "  {\"a\":1}  \r\n", "\t[ 1 , 2 ]\n", "\"x\"", "0", "-0", "1.5e+10", "-1E-2", "0.0e0",
        "true", "false", "null", "[1,[2,[3]]]", "{\"a\":{\"b\":[{}, [], \"\", 0]}}",
        "\"\\u00e9\\ud83d\\ude00\"", "\"é😀中\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "{\"\":\"\"}",
        "\"\\u0000\"", "\"\u{7F}\"", "\"\u{10FFFF}\"", "[-9223372036854775809, 1e999, 0.000001]",
    ])
    func wellFormed(_ text: String) {
        #expect(ScannedJSON.syntaxError(text) == nil)
    }

    @Test("rejects malformed values with the right problem", arguments: [
        ("", JSONSyntaxError.Problem.unexpectedEnd),
        ("   \n", .unexpectedEnd),
        ("{", .unexpectedEnd),
        ("{\"eventId\": \"bad-1\", \"materialId\": \"m-01\"", .unexpectedEnd),
        ("[1, 2", .unexpectedEnd),
        ("{\"a\"}", .unexpectedByte),
        ("{\"a\":}", .unexpectedByte),
        ("{\"a\":1,}", .unexpectedByte),
        ("{,}", .unexpectedByte),
        ("[1,]", .unexpectedByte),
        ("[,1]", .unexpectedByte),
        ("[1 2]", .unexpectedByte),
        ("{'a':1}", .unexpectedByte),
        ("{a:1}", .unexpectedByte),
        ("{\"a\" 1}", .unexpectedByte),
        ("{\"a\":1 \"b\":2}", .unexpectedByte),
        ("[1}", .unexpectedByte),
        ("{\"a\":[}", .unexpectedByte),
        (" garbage", .unexpectedByte),
        ("tru", .unexpectedEnd),
        ("trux", .unexpectedByte),
        ("nul", .unexpectedEnd),
        ("NaN", .unexpectedByte),
        ("Infinity", .unexpectedByte),
        ("+1", .unexpectedByte),
        (".5", .unexpectedByte),
        ("-", .invalidNumber),
        ("-a", .invalidNumber),
        ("1.", .invalidNumber),
        ("1.e5", .invalidNumber),
        ("1e", .invalidNumber),
        ("1e+", .invalidNumber),
        ("[01]", .unexpectedByte),
        ("{\"a\":-01}", .unexpectedByte),
        ("01", .trailingData),
        ("{\"a\":1} x", .trailingData),
        ("{\"a\":1}{}", .trailingData),
        ("[] []", .trailingData),
        ("\"abc", .unexpectedEnd),
        ("\"abc\\", .unexpectedEnd),
        ("\"a\u{01}b\"", .controlCharacter),
        ("\"tab\there\"", .controlCharacter),
        ("\"line\nbreak\"", .controlCharacter),
        ("\"\\x\"", .invalidEscape),
        ("\"\\U0041\"", .invalidEscape),
        ("\"\\u12G4\"", .invalidEscape),
        ("\"\\u12\"", .invalidEscape),
        ("\"\\ud800\"", .unpairedSurrogate),
        ("\"\\ud800x\"", .unpairedSurrogate),
        ("\"\\udc00\\ud800\"", .unpairedSurrogate),
        ("\"\\ud800\\u0041\"", .unpairedSurrogate),
        ("\"\\ud800\\ud800\"", .unpairedSurrogate),
    ])
    func malformed(_ text: String, _ problem: JSONSyntaxError.Problem) {
        #expect(ScannedJSON.syntaxError(text)?.problem == problem)
    }

    @Test("reports the offset of the offending byte")
    func offset() {
        #expect(ScannedJSON.syntaxError("{\"a\":1,}") == JSONSyntaxError(.unexpectedByte, at: 7))
        #expect(ScannedJSON.syntaxError("{\"a\":1} x") == JSONSyntaxError(.trailingData, at: 8))
        #expect(ScannedJSON.syntaxError("[1") == JSONSyntaxError(.unexpectedEnd, at: 2))
        #expect(String(describing: JSONSyntaxError(.unexpectedEnd, at: 68)) == "unexpected end of input at byte 68")
    }

    @Test("rejects ill-formed UTF-8 in strings", arguments: [
        [0xC3, 0x28],             // lead without continuation
        [0x80],                   // lone continuation
        [0xBF, 0x41],             // lone continuation
        [0xC0, 0x80],             // overlong NUL
        [0xC1, 0xBF],             // overlong
        [0xE0, 0x80, 0x80],       // overlong three-byte
        [0xE0, 0x9F, 0xBF],       // overlong three-byte
        [0xED, 0xA0, 0x80],       // UTF-16 surrogate D800
        [0xED, 0xBF, 0xBF],       // UTF-16 surrogate DFFF
        [0xF0, 0x8F, 0xBF, 0xBF], // overlong four-byte
        [0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
        [0xF5, 0x80, 0x80, 0x80], // invalid lead
        [0xFF],                   // invalid byte
        [0xE2, 0x82],             // truncated, then the quote
        [0xE2, 0x28, 0xA1],       // bad second byte
        [0xF0, 0x9F, 0x98],       // truncated four-byte
    ] as [[UInt8]])
    func badUTF8(_ sequence: [UInt8]) {
        let bytes = Array("{\"k\":\"ab".utf8) + sequence + Array("cd\"}".utf8)
        let problem = ScannedJSON.syntaxError(bytes)?.problem
        #expect(problem == .invalidUTF8 || (sequence.count > 1 && problem == .unexpectedEnd), "\(sequence): \(String(describing: problem))")
    }

    @Test("rejects ill-formed UTF-8 in keys and bytes outside strings")
    func badUTF8Elsewhere() {
        #expect(ScannedJSON.syntaxError([0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D])?.problem == .invalidUTF8)
        #expect(ScannedJSON.syntaxError(Array("{\"a\":1}".utf8) + [0xC3, 0xA9])?.problem == .trailingData)
    }

    @Test("ignores a leading byte order mark, and only a leading one")
    func byteOrderMark() {
        #expect(ScannedJSON.syntaxError([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8)) == nil)
        #expect(ScannedJSON.syntaxError([0xEF, 0xBB, 0xBF])?.problem == .unexpectedEnd)
        #expect(ScannedJSON.syntaxError([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("{}".utf8))?.problem == .unexpectedByte)
        #expect(ScannedJSON.syntaxError(Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("{}".utf8))?.problem == .unexpectedByte)
        #expect(ScannedJSON.syntaxError([0xEF, 0xBB] + Array("{}".utf8))?.problem == .unexpectedByte)
    }

    @Test("accepts every well-formed scalar length", arguments: ["a", "é", "中", "😀", "\u{10FFFF}", "\u{E000}", "\u{D7FF}"])
    func goodUTF8(_ scalar: String) {
        #expect(ScannedJSON.withValue("\"\(scalar)\"") { $0.string } == scalar)
    }

    @Test("finds special bytes at every offset of the eight-byte fast path")
    func specialByteAtEveryOffset() {
        for length in 0..<40 {
            let padding = String(repeating: "a", count: length)
            #expect(ScannedJSON.withValue("\"\(padding)\"") { $0.string } == padding)
            #expect(ScannedJSON.withValue("\"\(padding)\\n\(padding)\"") { $0.string } == padding + "\n" + padding)
            #expect(ScannedJSON.withValue("\"\(padding)é\(padding)\"") { $0.string } == padding + "é" + padding)
            #expect(ScannedJSON.syntaxError("\"\(padding)\u{1F}\(padding)\"")?.problem == .controlCharacter)
            #expect(ScannedJSON.syntaxError("\"\(padding)")?.problem == .unexpectedEnd)
            #expect(ScannedJSON.syntaxError(Array("[\"\(padding)".utf8) + [0xC3] + Array("\"]".utf8))?.problem == .invalidUTF8)
        }
    }

    @Test("accepts nesting up to the limit and rejects deeper nesting")
    func depth() {
        let limit = JSONScanner.maximumDepth
        func arrays(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        #expect(ScannedJSON.syntaxError(arrays(limit)) == nil)
        #expect(ScannedJSON.syntaxError(arrays(limit + 1))?.problem == .tooDeep)
        let objects = String(repeating: "{\"a\":", count: limit - 1) + "{}" + String(repeating: "}", count: limit - 1)
        #expect(ScannedJSON.syntaxError(objects) == nil)
        #expect(ScannedJSON.syntaxError("{\"a\":" + objects + "}")?.problem == .tooDeep)
        let mixed = "{\"a\":" + String(repeating: "[{\"b\":", count: 255) + "0" + String(repeating: "}]", count: 255) + "}"
        #expect(ScannedJSON.syntaxError(mixed) == nil)
    }

    @Test("survives absurd nesting without recursion")
    func absurdNesting() {
        #expect(ScannedJSON.syntaxError(String(repeating: "[", count: 1_000_000))?.problem == .tooDeep)
        #expect(ScannedJSON.syntaxError("{\"a\":" + String(repeating: "[", count: 100_000))?.problem == .tooDeep)
    }

    @Test("tells the kind of the top-level value")
    func topLevelKind() {
        #expect(ScannedJSON.withDocument("[1,2,3]") { $0.kind } == .array)
        #expect(ScannedJSON.withDocument("null") { $0.kind } == .null)
        #expect(ScannedJSON.withDocument(" 42 ") { $0.kind } == .number)
        #expect(ScannedJSON.withDocument("\"s\"") { $0.kind } == .string)
        #expect(ScannedJSON.withDocument("false") { $0.kind } == .bool)
        #expect(ScannedJSON.withDocument("{}") { $0.kind } == .object)
    }
}
