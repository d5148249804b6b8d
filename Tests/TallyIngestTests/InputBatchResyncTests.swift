import TallyEvents
import TallyIngest
import XCTest

/// A damaged element of a batch must not take the elements after it down with it: they are
/// read again from the next element boundary, and every element is accounted for.
final class InputBatchResyncTests: XCTestCase {
    static func event(_ i: Int) -> String {
        #"{"eventId":"e-\#(i)","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":1}"#
    }

    /// A one-line batch of `count` events whose element `damaged` is replaced by `damage`.
    static func batch(_ count: Int, damaged: Int, _ damage: String) -> [UInt8] {
        Array(("[" + (0..<count).map { $0 == damaged ? damage : event($0) }.joined(separator: ",") + "]").utf8)
    }

    /// The accepted keys and the rejections (line, element, code) of a body.
    static func outcomes(_ bytes: [UInt8], chunkSize: Int = 4096, maxRecordBytes: Int = 64 << 20) throws -> (keys: [String], rejected: [String]) {
        let reader = try EventFileReader(bytes: bytes, name: "batch.json", chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
        let chunk = try ValidatedChunk(reading: reader, label: "batch.json")
        var keys: [String] = [], rejected: [String] = []
        for entry in chunk.entries {
            switch entry.result {
            case .success(let event): keys.append(event.idempotencyKey)
            case .failure(let rejection): rejected.append("\(entry.origin.label) \(rejection.code.rawValue)")
            }
        }
        return (keys, rejected)
    }

    func testAnObjectLeftOpenDoesNotSwallowTheElementsAfterIt() throws {
        let count = 10_000, damaged = 5_000
        let open = #"{"eventId":"e-5000","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000"#
        let (keys, rejected) = try Self.outcomes(Self.batch(count, damaged: damaged, open))
        XCTAssertEqual(keys, (0..<count).filter { $0 != damaged }.map { "e-\($0)" })
        XCTAssertEqual(rejected, ["batch.json:1 (event #5000) INVALID_JSON"])
    }

    func testAStringLeftUnterminatedDoesNotSwallowTheElementsAfterIt() throws {
        let count = 10_000, damaged = 5_000
        let (keys, rejected) = try Self.outcomes(Self.batch(count, damaged: damaged, #"{"eventId":"e-5000"#))
        XCTAssertEqual(keys, (0..<count).filter { $0 != damaged }.map { "e-\($0)" })
        XCTAssertEqual(rejected, ["batch.json:1 (event #5000) INVALID_JSON"])
    }

    func testAnElementTooLongToHoldIsSkippedOnlyUpToTheNextElement() throws {
        // The open object makes the element longer than the limit: the splitter cannot hold it to
        // read it again, so it seeks the next element in the bytes as they stream by.
        let open = #"{"eventId":"e-50","materialId":"m","eventType":"heartbeat","clientTimestampMs":1795100000000"#
        for chunkSize in [64, 4096] {
            let (keys, rejected) = try Self.outcomes(Self.batch(100, damaged: 50, open), chunkSize: chunkSize, maxRecordBytes: 1000)
            XCTAssertEqual(keys, (0..<100).filter { $0 != 50 }.map { "e-\($0)" }, "chunk size \(chunkSize)")
            XCTAssertEqual(rejected, ["batch.json:1 (event #50) INVALID_JSON"], "chunk size \(chunkSize)")
        }
    }

    func testAStrayClosingBracketIsReportedAndTheRestIsRead() throws {
        let text = "[" + Self.event(0) + ",\n" + Self.event(1) + "],\n" + Self.event(2) + ",\n" + Self.event(3) + "]\n"
        let (keys, rejected) = try Self.outcomes(Array(text.utf8))
        XCTAssertEqual(keys, ["e-0", "e-1", "e-2", "e-3"])
        XCTAssertEqual(rejected, ["batch.json:2 INVALID_JSON"])
    }

    func testAMissingCommaKeepsTheNextElement() throws {
        let text = "[" + Self.event(0) + " " + Self.event(1) + "," + Self.event(2) + "]"
        let (keys, rejected) = try Self.outcomes(Array(text.utf8))
        XCTAssertEqual(keys, ["e-1", "e-2"])
        XCTAssertEqual(rejected, ["batch.json:1 (event #0) INVALID_JSON"])
    }

    func testNestedOpenObjectsStayLinear() throws {
        // Every `{` after a `,` could start an element: re-reading is bounded, not quadratic.
        // What the budget leaves unsearched makes the whole input an error, never a success.
        let text = "[" + String(repeating: "{\"a\":1,", count: 50_000) + "]"
        let reader = try EventFileReader(bytes: Array(text.utf8), name: "batch.json")
        XCTAssertThrowsError(try ValidatedChunk(reading: reader, label: "batch.json")) { error in
            guard case .unreadAfterDamage(let file, let line, let bytes)? = error as? EventFileError else { return XCTFail("\(error)") }
            XCTAssertEqual(file, "batch.json")
            XCTAssertEqual(line, 1)
            XCTAssertLessThan(bytes, text.utf8.count, "the re-reading searched part of it before stopping")
        }
    }
}
