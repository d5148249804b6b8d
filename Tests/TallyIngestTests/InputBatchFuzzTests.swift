import TallyIngest
import TallyTestSupport
import XCTest

/// Random well-formed batches, cut at random chunk sizes, give back exactly their elements.
final class InputBatchFuzzTests: XCTestCase {
    typealias Generator = SplitMix64

    /// String contents that stress the scanner: brackets, escapes, a quote after an escaped backslash.
    static let pieces = ["a", "events", "]", "}", "[", "{", ",", ":", " ", "\\\"", "\\\\", "\\\\\\\"", "\\n", "\\u005d",
                         "é", "线性代数", "0123456789abcdef"]

    func string(_ g: inout Generator) -> String {
        "\"" + (0..<Int.random(in: 0...12, using: &g)).map { _ in Self.pieces.randomElement(using: &g)! }.joined() + "\""
    }

    func value(_ g: inout Generator, depth: Int) -> String {
        switch Int.random(in: 0..<(depth > 3 ? 3 : 6), using: &g) {
        case 0, 1: return string(&g)
        case 2: return ["1", "-0.5e3", "true", "false", "null", "1763700000000"].randomElement(using: &g)!
        case 3, 4:
            let members = (0..<Int.random(in: 0...4, using: &g)).map { _ in
                "\(string(&g))\(space(&g)):\(space(&g))\(value(&g, depth: depth + 1))"
            }
            return "{" + members.joined(separator: ",\(space(&g))") + "}"
        default:
            let items = (0..<Int.random(in: 0...4, using: &g)).map { _ in value(&g, depth: depth + 1) }
            return "[" + items.joined(separator: ", ") + "]"
        }
    }

    func space(_ g: inout Generator) -> String {
        ["", "", " ", "\n", "\r\n  ", "\t"].randomElement(using: &g)!
    }

    func testRandomBatchesGiveBackTheirElements() throws {
        var g = Generator(seed: 42)
        for round in 0..<300 {
            let elements = (0..<Int.random(in: 0...20, using: &g)).map { _ in value(&g, depth: 0) }
            var text = "[" + space(&g)
            var lines: [Int] = []
            for (k, element) in elements.enumerated() {
                if k > 0 { text += space(&g) + "," + space(&g) }
                lines.append(text.utf8.count(where: { $0 == 0x0A }) + 1)
                text += element
            }
            text += space(&g) + "]" + space(&g)
            let asObject = round.isMultiple(of: 2)
            if asObject {
                text = "{\"before\": {\"events\": [1]},\n\"events\":" + text + ", \"after\": \"]}\"}"
                lines = lines.map { $0 + 1 }
            }
            let chunkSize = Int.random(in: 1...64, using: &g)
            let reader = try EventFileReader(bytes: Array(text.utf8), name: "fuzz.json", chunkSize: chunkSize)
            XCTAssertEqual(reader.format, asObject ? .batchObject : .batchArray)
            let cuts = try InputFixtures.cuts(of: reader)
            XCTAssertEqual(cuts.map(\.text), elements, "round \(round), chunk size \(chunkSize): \(text)")
            XCTAssertEqual(cuts.map(\.line), lines, "round \(round)")
            XCTAssertEqual(cuts.map(\.index), elements.indices.map { $0 }, "round \(round)")
            XCTAssertEqual(cuts.filter(\.malformed), [], "round \(round)")
        }
    }
}
