import Testing
import TallyEvents

@Suite("JSONScanner round trips")
struct JSONScannerRoundTripTests {
    /// `text` as a JSON string literal; other characters are escaped too when `generator` says so.
    static func literal(_ text: String, using generator: inout some RandomNumberGenerator) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let forced = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            if !forced && Bool.random(using: &generator) {
                out.unicodeScalars.append(scalar)
            } else if scalar.value > 0xFFFF {
                let v = scalar.value - 0x10000
                out += hex(0xD800 + (v >> 10)) + hex(0xDC00 + (v & 0x3FF))
            } else {
                out += hex(scalar.value)
            }
        }
        return out + "\""
    }

    /// `\uXXXX` for a UTF-16 code unit, in random letter case.
    static func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: Bool.random())
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    @Test("decodes random strings written with random escapes")
    func randomStrings() {
        var generator = SystemRandomNumberGenerator()
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "中",
                                      "😀", "\u{10FFFF}", "\u{FFFF}", "\u{E000}", "线"]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                text.unicodeScalars.append(pool.randomElement(using: &generator)!)
            }
            let json = Self.literal(text, using: &generator)
            #expect(ScannedJSON.withValue(json) { $0.string } == .some(text), "\(json)")
            #expect(ScannedJSON.withObject("{\(json):1}") { $0.count } == 1)
        }
    }

    @Test("finds keys however they are spelled")
    func randomKeys() {
        var generator = SystemRandomNumberGenerator()
        for key in ["eventId", "clientTimestampMs", "a", "", "线性代数", "with \"quote\"", "k😀"] {
            let spelled = Self.literal(key, using: &generator)
            let found = ScannedJSON.withObject("{\"x\":0,\(spelled):1}") { object -> Bool in
                switch key {
                case "eventId": object["eventId"] != nil
                case "clientTimestampMs": object["clientTimestampMs"] != nil
                case "a": object["a"] != nil
                case "": object[""] != nil
                case "线性代数": object["线性代数"] != nil
                case "with \"quote\"": object["with \"quote\""] != nil
                default: object["k😀"] != nil
                }
            }
            #expect(found == true, "\(spelled)")
        }
    }
}
